// This module is browser-compatible.
/**
 * Browser side of the islands layer: finds the markers of one island and hydrates them. Also the part of
 * client-side navigation that belongs to the framework: unmounting the islands of a swapped-out area and
 * hydrating the islands of the new one (loading their scripts when this page has not loaded them yet).
 *
 * On page load the islands hydrate one per task, so that no task holding up input is longer than one island:
 * the island scripts only queue their markers, and a drain loop yields to the browser (`scheduler.yield()`,
 * else a MessageChannel message) before each one. The islands of the routed area (`<main>`) go first, the
 * shell's (header, sidebar, overlays) after; islands share state through modules, never through hydration order.
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

interface Job {
  marker: Element;
  component: ComponentType<object>;
}
// Like the registry, one queue per page.
const hydration: { queue: Job[]; draining: Promise<void> | null } =
  ((globalThis as { __fbHydration?: { queue: Job[]; draining: Promise<void> | null } }).__fbHydration ??= {
    queue: [],
    draining: null,
  });
const queue = hydration.queue;

/** Ends the current task: `scheduler.yield()` where the browser has it, else a MessageChannel message. */
function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === "function") return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** The next queued island: the first one inside the routed area, else the first queued. */
function takeNext(): Job {
  const i = queue.findIndex((job) => job.marker.closest("main") !== null);
  return queue.splice(Math.max(i, 0), 1)[0];
}

async function drain(): Promise<void> {
  while (queue.length) {
    await nextTask();
    const job = takeNext();
    // A marker swapped out by client-side navigation meanwhile is gone; its new area hydrates on its own.
    if (!job?.marker.isConnected) continue;
    try {
      hydrateMarker(job.marker, job.component);
    } catch (err) {
      // One island failing must not keep the others from hydrating.
      reportError(err);
    }
  }
  hydration.draining = null;
}

/** Resolves once every queued island has hydrated. */
function whenDrained(): Promise<void> {
  return hydration.draining ?? Promise.resolve();
}

/**
 * Hydrates every instance of the named island on the page (props in the framework/serialize.ts format), each in
 * a task of its own (see above); their roots get `data-hydrated` once mounted.
 */
export function hydrateIsland(name: string, component: Island): void {
  const inner = component.inner ?? component;
  registry.set(name, inner);
  for (const marker of document.querySelectorAll(`fb-island[data-island="${name}"]`)) {
    queue.push({ marker, component: inner });
  }
  if (queue.length && !hydration.draining) hydration.draining = drain();
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
  await whenDrained();
}
