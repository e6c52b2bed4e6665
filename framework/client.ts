// This module is browser-compatible.
/** Browser side of the islands layer: finds the markers of one island and hydrates them. */
import { h, hydrate } from "preact";
import { useEffect } from "preact/hooks";
import type { ComponentType } from "preact";
import { parse } from "./serialize.ts";

function Hydrated(props: { root: Element; component: ComponentType<object>; props: object }) {
  useEffect(() => {
    props.root.setAttribute("data-hydrated", "true");
  }, []);
  return h(props.component, props.props);
}

/** Hydrates every instance of the named island on the page (props in the framework/serialize.ts format). */
export function hydrateIsland(
  name: string,
  component: ComponentType<object> & { inner?: ComponentType<object> },
): void {
  const inner = component.inner ?? component;
  for (const marker of document.querySelectorAll(`fb-island[data-island="${name}"]`)) {
    const propsEl = marker.querySelector(`:scope > script[data-island-props]`);
    const root = marker.querySelector(`:scope > div[data-island-root]`);
    if (!root) continue;
    const props = (propsEl?.textContent ? parse(propsEl.textContent) : {}) as object;
    hydrate(h(Hydrated, { root, component: inner, props: props ?? {} }), root);
  }
}
