// This module is browser-compatible.
/**
 * History-mode navigation inside the files page: folders and files open with pushState, the back button works,
 * and every route change clears the selection and closes prompts. Between the files and settings pages the main
 * area is swapped from a partial answer (client/partial.ts), so uploads, the clipboard and the overlays live on.
 * Other URLs are plain page loads.
 */
import { batch, computed, signal } from "@preact/signals";
import { currentMain, loadPartial, swapIn } from "./partial.ts";
import { baseUrl, IS_BROWSER } from "./page.ts";
import { contextMenuAt, currentPath, focusIndex, multiple, selection } from "./state.ts";
import { closeAllPrompts, currentPrompt } from "./prompts.ts";
import { decodePathLenient, pathBelow } from "../lib/request_path.ts";

let spa = false;

/** The URL shown in the address bar, updated on every in-app navigation. */
export const routeUrl = signal(IS_BROWSER ? location.href : "");
/** True while the address bar shows a files-page URL (the header's file actions, the sidebar's disk usage). */
export const onFilesRoute = computed(() =>
  routeUrl.value !== "" && vpathOf(new URL(routeUrl.value).pathname) !== null
);

/** The vpath of a files-page URL path ("/base/files/a%20b/" → "/a b/"), or null for other pages. */
export function vpathOf(pathname: string): string | null {
  const raw = pathBelow(pathname.slice(baseUrl().length), "/files");
  return raw === null ? null : decodePathLenient(raw);
}

if (IS_BROWSER) {
  // Before any island renders, so the first browser render matches the server's (same path, same breadcrumbs).
  const initial = vpathOf(location.pathname);
  if (initial !== null) currentPath.value = initial;
}

/** Resets per-route UI state: selection, multiple mode, prompts (except a success message). */
export function resetRouteState(): void {
  batch(() => {
    selection.value = new Set();
    multiple.value = false;
    focusIndex.value = -1;
    contextMenuAt.value = null;
    if (currentPrompt.value?.name !== "success") closeAllPrompts();
  });
}

/**
 * Checks run before an in-app navigation leaves the current URL (back button included); one returning false keeps
 * the page where it is. The editor adds one that asks about unsaved changes.
 */
export const leaveGuards = new Set<() => boolean>();

function mayLeave(): boolean {
  for (const guard of leaveGuards) if (!guard()) return false;
  return true;
}

let here = IS_BROWSER ? location.href : "";

/** True for the pages that share the main layout and swap with partial loads: files and settings. */
function isLayoutPage(pathname: string): boolean {
  const rel = pathname.slice(baseUrl().length);
  return vpathOf(pathname) !== null || rel === "/settings" || rel.startsWith("/settings/");
}

function apply(pathname: string): void {
  here = location.href;
  routeUrl.value = here;
  const vpath = vpathOf(pathname);
  if (vpath === null) return;
  batch(() => {
    resetRouteState();
    currentPath.value = vpath;
  });
}

let generation = 0;

/** Swaps the main area for the page at `url` (null history: the browser already moved, back/forward). */
async function goPartial(url: string, history_: "push" | "replace" | null): Promise<void> {
  const mine = ++generation;
  const partial = await loadPartial(url);
  if (mine !== generation) return;
  if (!partial) {
    if (history_ === null) location.reload();
    else location.assign(url);
    return;
  }
  if (history_ === "push") history.pushState(null, "", partial.url);
  else history.replaceState(null, "", partial.url);
  const vpath = vpathOf(new URL(partial.url).pathname);
  here = location.href;
  batch(() => {
    routeUrl.value = here;
    resetRouteState();
    if (vpath !== null) currentPath.value = vpath;
  });
  await swapIn(partial);
  scrollTo(0, 0);
}

function onPopState(): void {
  // The browser already moved; put the previous URL back when a guard keeps the page.
  if (!mayLeave()) {
    history.pushState(null, "", here);
    return;
  }
  const from = new URL(here);
  if (spa && vpathOf(location.pathname) !== null) {
    apply(location.pathname);
  } else if (from.pathname === location.pathname && from.search === location.search) {
    here = location.href;
  } else if (isLayoutPage(from.pathname) && currentMain()) {
    void goPartial(location.href, null);
  }
}

/**
 * Plain clicks on links to files or settings pages that no island handled (the settings nav, edit links, the
 * error view's way home, all rendered on the server) navigate client-side too.
 */
function onLinkClick(e: MouseEvent): void {
  if (!isPlainClick(e)) return;
  const a = (e.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
  if (!a || (a.target && a.target !== "_self") || a.hasAttribute("download")) return;
  const target = new URL(a.href, location.href);
  if (target.origin !== location.origin || !isLayoutPage(target.pathname) || !currentMain()) return;
  // A jump to an anchor of this page stays the browser's.
  if (target.hash && target.pathname === location.pathname && target.search === location.search) return;
  e.preventDefault();
  navigate(target.href);
}

if (IS_BROWSER && isLayoutPage(location.pathname)) {
  addEventListener("popstate", onPopState);
  document.addEventListener("click", onLinkClick);
}

/** Turns on client-side routing inside the files page (called by the files page once hydrated); returns the off. */
export function startRouter(): () => void {
  if (!IS_BROWSER) return () => {};
  spa = true;
  currentPath.value = vpathOf(location.pathname) ?? "/";
  return () => {
    spa = false;
  };
}

/**
 * Goes to a URL: inside the files page without reloading, between the files and settings pages by swapping the
 * main area, anywhere else with a normal page load.
 */
export function navigate(url: string, options: { replace?: boolean } = {}): void {
  const target = new URL(url, location.href);
  const sameOrigin = target.origin === location.origin;
  const inFiles = spa && sameOrigin && vpathOf(target.pathname) !== null;
  if (!inFiles) {
    if (sameOrigin && isLayoutPage(target.pathname) && isLayoutPage(location.pathname) && currentMain()) {
      if (!options.replace && target.href !== location.href && !mayLeave()) return;
      void goPartial(target.href, options.replace ? "replace" : "push");
    } else location.assign(target.href);
    return;
  }
  if (!options.replace && target.href !== location.href && !mayLeave()) return;
  if (options.replace) history.replaceState(null, "", target.href);
  else if (target.href !== location.href) history.pushState(null, "", target.href);
  apply(target.pathname);
  scrollTo(0, 0);
}

/** True when a click should be left to the browser (new tab, download, modifier keys). */
export function isPlainClick(e: MouseEvent): boolean {
  return e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey && !e.defaultPrevented;
}
