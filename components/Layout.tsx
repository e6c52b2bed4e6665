import type { ComponentChildren, VNode } from "preact";
import { isPartialRender } from "../framework/render_context.ts";

/** Props of Layout. */
export interface LayoutProps {
  /** The top bar (usually the Header island). */
  header: ComponentChildren;
  /** The side navigation (usually the Sidebar island). */
  sidebar: ComponentChildren;
  /** Prompts, toasts and panels drawn above the page. */
  overlays?: ComponentChildren;
  children?: ComponentChildren;
  /** Keep the sidebar behind the menu button at every width (pages centred on their own content). */
  drawer?: boolean;
}

/** The names of the islands in a tree of elements (not inside components that are not islands). */
function islandNames(node: ComponentChildren, out: string[] = []): string[] {
  if (Array.isArray(node)) {
    for (const n of node) islandNames(n, out);
  } else if (node && typeof node === "object" && "type" in node) {
    const v = node as VNode<{ children?: ComponentChildren }>;
    const name = (v.type as { islandName?: string }).islandName;
    if (name) out.push(name);
    else islandNames(v.props.children, out);
  }
  return out;
}

/**
 * What stays mounted around the main area: the layout kind and the islands of the header, sidebar and overlays.
 * Client-side navigation swaps only the main area, between pages whose signatures are equal.
 */
export function layoutSignature(props: LayoutProps): string {
  const names = islandNames([props.header, props.sidebar, props.overlays]).sort();
  return `${props.drawer ? "drawer" : "layout"}:${names.join(",")}`;
}

/**
 * The main layout: top bar, sidebar (a drawer on mobile), the routed main area and the overlay layers. The
 * `_layout.tsx` files of routes/ compose it once; a section's own layout puts its heading in the main area.
 */
export function Layout(props: LayoutProps) {
  const main = (
    <main id="main" class="main" data-layout={layoutSignature(props)}>
      {props.children}
    </main>
  );
  // A partial render (client-side navigation) sends the main area only; the rest stays mounted in the browser.
  if (isPartialRender()) return main;
  return (
    <div class={props.drawer ? "layout drawer-layout" : "layout"}>
      {props.header}
      {props.sidebar}
      {main}
      {props.overlays}
    </div>
  );
}
