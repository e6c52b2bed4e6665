// This module is browser-compatible.
/**
 * Partial page loads for client-side navigation between pages of one layout (files ↔ settings): the server
 * answers `X-Partial: main` with the routed main area only (framework/router.ts), and the browser swaps it in while
 * the header, sidebar and overlay islands (upload panel, toasts, prompts) stay mounted. See docs/architecture.md.
 * Its fetch loads pages, not the API: it sends no token, maps no errors (any failure means "load the page the
 * ordinary way") and so stays outside client/api/, the one exception the architecture test allows.
 */
import { hydrateIslandsIn, unmountIslands } from "../framework/client.ts";
import { PARTIAL_HEADER, PARTIAL_MAIN } from "../framework/render_context.ts";
import type { PartialPage } from "../framework/router.ts";

/** A fetched partial, ready to swap in. */
export interface LoadedPartial {
  /** The final URL (after the server's redirects). */
  url: string;
  title: string;
  main: HTMLElement;
  styles: string[];
  scripts: string[];
}

/** The main area of the current page when it is a layout page (partial navigation possible), else null. */
export function currentMain(): HTMLElement | null {
  const main = document.getElementById("main");
  return main?.dataset.layout ? main : null;
}

/**
 * Fetches the main area of `url`. Null when it cannot be swapped in (another layout, an answer that is not a
 * partial, a network failure): the caller then loads the page the ordinary way.
 */
export async function loadPartial(url: string): Promise<LoadedPartial | null> {
  const here = currentMain();
  if (!here) return null;
  let res: Response;
  try {
    res = await fetch(url, { headers: { [PARTIAL_HEADER]: PARTIAL_MAIN }, credentials: "same-origin" });
  } catch {
    return null;
  }
  if (!(res.headers.get("content-type") ?? "").startsWith("application/json")) return null;
  const data = await res.json().catch(() => null) as PartialPage | null;
  if (!data || typeof data.html !== "string") return null;
  const tpl = document.createElement("template");
  tpl.innerHTML = data.html + (data.head ?? "");
  const main = tpl.content.querySelector<HTMLElement>("main#main");
  if (!main || main.dataset.layout !== here.dataset.layout) return null;
  const styles = [...tpl.content.querySelectorAll<HTMLLinkElement>("link[rel=stylesheet]")].map((l) =>
    l.getAttribute("href") ?? ""
  ).filter(Boolean);
  const title = tpl.content.querySelector("title")?.textContent ?? document.title;
  return { url: res.url || url, title, main, styles, scripts: data.scripts ?? [] };
}

function addStyle(href: string): Promise<void> {
  const known = [...document.querySelectorAll<HTMLLinkElement>("link[rel=stylesheet]")];
  if (known.some((l) => l.getAttribute("href") === href)) return Promise.resolve();
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  const loaded = new Promise<void>((resolve) => {
    link.onload = link.onerror = () => resolve();
    // A stylesheet that never answers must not block the page.
    setTimeout(resolve, 3000);
  });
  document.head.append(link);
  return loaded;
}

/** Swaps the fetched main area in: stylesheets first, then the old islands unmount and the new ones hydrate. */
export async function swapIn(partial: LoadedPartial): Promise<void> {
  await Promise.all(partial.styles.map(addStyle));
  const old = currentMain();
  if (!old) return;
  document.title = partial.title;
  unmountIslands(old);
  const main = document.importNode(partial.main, true);
  old.replaceWith(main);
  await hydrateIslandsIn(main, partial.scripts);
}
