// This module is browser-compatible.
/** A Preact context the document shell fills during a server render, so components can read per-request data. */
import { createContext } from "preact";

/**
 * Per-request shell data for one server render (the app decides its shape: the session, the locale), the same
 * on every page; page data goes through the page's props, never here. Islands hydrate as separate roots in the
 * browser, where this context is empty: browser code reads the same data from the page instead.
 */
export const RenderContext = createContext<unknown>(undefined);

/** Request header asking for the routed main area only (client-side navigation between pages of one layout). */
export const PARTIAL_HEADER = "X-Partial";
/** The one value of PARTIAL_HEADER: the `<main>` of the layout. */
export const PARTIAL_MAIN = "main";

let partial = false;

/** Set by the router around one synchronous server render: the page is rendered without its shell. */
export function setPartialRender(on: boolean): void {
  partial = on;
}

/** True while the server renders a partial (layouts then render only their main area). */
export function isPartialRender(): boolean {
  return partial;
}
