import type { ComponentChildren } from "preact";

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
  /** The page's one `<h1>`, for screen readers only (pages whose visible titles are cards or breadcrumbs). */
  heading?: string;
}

/** The main layout: top bar, sidebar (a drawer on mobile), the routed main area and the overlay layers. */
export function Layout(props: LayoutProps) {
  return (
    <div class={props.drawer ? "layout drawer-layout" : "layout"}>
      {props.header}
      {props.sidebar}
      <main id="main" class="main">
        {props.heading && <h1 class="sr-only">{props.heading}</h1>}
        {props.children}
      </main>
      {props.overlays}
    </div>
  );
}
