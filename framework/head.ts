// This module is browser-compatible.
/**
 * The document head of one server render: `<Head>` elements anywhere in a page, plus `page(data, { head })`,
 * are collected and put before `</head>` by the router (so pages need no links or meta tags in the body).
 */
import type { ComponentChildren, VNode } from "preact";

let collector: ComponentChildren[] | null = null;

/** Starts collecting head elements for one synchronous server render. */
export function beginHeadCollection(): void {
  collector = [];
}

/** Ends the collection and returns what `<Head>` elements held, in render order. */
export function endHeadCollection(): ComponentChildren[] {
  const out = collector ?? [];
  collector = null;
  return out;
}

/**
 * Puts its children (`<link>`, `<meta>`, `<style>`) into the document head during a server render; renders
 * nothing in place. In the browser (islands) it renders nothing at all. The title is `page(data, { title })`.
 */
export function Head(props: { children?: ComponentChildren }): VNode | null {
  collector?.push(props.children);
  return null;
}
