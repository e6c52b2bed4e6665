// This module is browser-compatible.
/**
 * Browser side of the islands layer: finds the markers of one island and hydrates them. Also the part of
 * client-side navigation that belongs to the framework: unmounting the islands of a swapped-out area and
 * hydrating the islands of the new one (loading their scripts when this page has not loaded them yet).
 */
import { h, hydrate, render } from "preact";
import { useEffect } from "preact/hooks";
import type { ComponentType } from "preact";
import { parse } from "./serialize.ts";

type Island = ComponentType<object> & { inner?: ComponentType<object> };

// Every island bundle registers here (one registry per page, whichever chunk holds this module).
const registry: Map<string, ComponentType<object>> =
  ((globalThis as { __fbIslands?: Map<string, ComponentType<object>> }).__fbIslands ??= new Map());
const mounted = new WeakSet<Element>();
/** Marks the islands of a swapped-in area (rendered, not hydrated). */
const FRESH = "data-fresh";

function Hydrated(props: { root: Element; component: ComponentType<object>; props: object }) {
  useEffect(() => {
    props.root.setAttribute("data-hydrated", "true");
  }, []);
  return h(props.component, props.props);
}

function hydrateMarker(marker: Element, component: ComponentType<object>): void {
  const propsEl = marker.querySelector(`:scope > script[data-island-props]`);
  const root = marker.querySelector(`:scope > div[data-island-root]`);
  if (!root || mounted.has(root)) return;
  mounted.add(root);
  const props = (propsEl?.textContent ? parse(propsEl.textContent) : {}) as object;
  const vnode = h(Hydrated, { root, component, props: props ?? {} });
  if (!marker.hasAttribute(FRESH)) {
    hydrate(vnode, root);
    return;
  }
  // Swapped in by client-side navigation: the page's state may already differ from the server's render (a
  // listing kept in memory), so the island renders anew instead of adopting the markup.
  marker.removeAttribute(FRESH);
  root.textContent = "";
  render(vnode, root);
}

/** Hydrates every instance of the named island on the page (props in the framework/serialize.ts format). */
export function hydrateIsland(name: string, component: Island): void {
  const inner = component.inner ?? component;
  registry.set(name, inner);
  for (const marker of document.querySelectorAll(`fb-island[data-island="${name}"]`)) {
    hydrateMarker(marker, inner);
  }
}

/** Unmounts the islands inside `container` (their effects clean up) before it is replaced. */
export function unmountIslands(container: Element): void {
  for (const root of container.querySelectorAll("div[data-island-root]")) {
    if (mounted.has(root)) render(null, root);
    mounted.delete(root);
  }
}

/**
 * Hydrates the islands inside `container`: those whose script this page already ran right away, the others by
 * loading their script (`scripts`: the URLs of a partial answer), which hydrates them when it runs.
 */
export async function hydrateIslandsIn(container: Element, scripts: string[]): Promise<void> {
  const missing = new Set<string>();
  const markers = [...container.querySelectorAll("fb-island[data-island]")];
  for (const marker of markers) marker.setAttribute(FRESH, "");
  for (const marker of markers) {
    const name = marker.getAttribute("data-island")!;
    const component = registry.get(name);
    if (component) hydrateMarker(marker, component);
    else missing.add(name);
  }
  const urls = scripts.filter((u) => missing.has(u.split("/").pop()!.replace(/\.js$/, "")));
  await Promise.all(urls.map((u) => import(u)));
}
