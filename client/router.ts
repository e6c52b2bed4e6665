// This module is browser-compatible.
/**
 * History-mode navigation inside the files page: folders and files open with pushState, the back button works,
 * and every route change clears the selection and closes prompts. Other URLs are plain page loads.
 */
import { batch } from "@preact/signals";
import { baseUrl, IS_BROWSER } from "./page.ts";
import { contextMenuAt, currentPath, focusIndex, multiple, selection } from "./state.ts";
import { closeAllPrompts, currentPrompt } from "./prompts.ts";

let spa = false;

/** The vpath of a files-page URL path ("/base/files/a%20b/" → "/a b/"), or null for other pages. */
export function vpathOf(pathname: string): string | null {
  const rel = pathname.slice(baseUrl().length);
  if (rel !== "/files" && !rel.startsWith("/files/")) return null;
  const raw = rel.slice("/files".length) || "/";
  return raw.split("/").map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  }).join("/");
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

function apply(pathname: string): void {
  here = location.href;
  const vpath = vpathOf(pathname);
  if (vpath === null) return;
  batch(() => {
    resetRouteState();
    currentPath.value = vpath;
  });
}

/** Turns on client-side routing (called by the files page once hydrated). */
export function startRouter(): void {
  if (spa || !IS_BROWSER) return;
  spa = true;
  currentPath.value = vpathOf(location.pathname) ?? "/";
  addEventListener("popstate", () => {
    // The browser already moved; put the previous URL back when a guard keeps the page.
    if (!mayLeave()) history.pushState(null, "", here);
    else apply(location.pathname);
  });
}

/** Goes to a URL: inside the files page without reloading, anywhere else with a normal page load. */
export function navigate(url: string, options: { replace?: boolean } = {}): void {
  const target = new URL(url, location.href);
  const inFiles = spa && target.origin === location.origin && vpathOf(target.pathname) !== null;
  if (!inFiles) {
    location.assign(target.href);
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
