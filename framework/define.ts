/** Route definition helpers, in the spirit of Fresh's `define.handlers` / `define.page` / `page()`. */
import type { Context, Env, MiddlewareHandler } from "hono";
import type { ComponentChildren, ComponentType } from "preact";

const PAGE = Symbol.for("framework.page");

/** What a page handler returns to have its component rendered with `data`. */
export interface PageResult<D> {
  [PAGE]: true;
  data: D;
  status: number;
  title?: string;
  head?: ComponentChildren;
}

/** Options of `page()`. */
export interface PageOptions {
  /** The HTTP status (200 by default). */
  status?: number;
  /** The document title, as the app's `_app.tsx` shows it. */
  title?: string;
  /** Elements for the document head (`<link rel="preload">`, `<meta>`), like `<Head>` in the page. */
  head?: ComponentChildren;
}

/** Asks the framework to render the route's page component with `data`. */
export function page<D>(data: D, options: PageOptions = {}): PageResult<D> {
  return { [PAGE]: true, data, status: options.status ?? 200, title: options.title, head: options.head };
}

/** True when a handler result is a page request rather than a Response. */
export function isPageResult(x: unknown): x is PageResult<unknown> {
  return typeof x === "object" && x !== null && (x as Record<symbol, unknown>)[PAGE] === true;
}

/** The HTTP methods a route module may handle. */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS";

/** One method handler. */
export type RouteHandler<E extends Env> = (
  c: Context<E>,
) => Response | PageResult<unknown> | Promise<Response | PageResult<unknown>>;

/** The handlers object of a route module. */
export type Handlers<E extends Env> = Partial<Record<Method, RouteHandler<E>>>;

/** Props given to a page component. */
export interface PageProps<D, S = unknown> {
  data: D;
  url: string;
  params: Record<string, string>;
  state: S;
}

/** Props given to a `_layout.tsx` component: the page's props and `Component`, the inner layout or the page. */
export interface LayoutProps<D = unknown, S = unknown> extends PageProps<D, S> {
  /** Renders what this layout wraps (the next layout down, or the page itself). */
  Component: ComponentType;
}

/** Per-module options of a page route or a `_layout.tsx` (`export const config = { … }`). */
export interface RouteConfig {
  /** Drop the layouts of the folders above: the module's own layout (if any) is the outermost one. */
  skipInheritedLayouts?: boolean;
}

type DataOf<H> = H extends Partial<Record<Method, (...args: never[]) => infer R>>
  ? Extract<Awaited<R>, PageResult<unknown>>["data"]
  : never;

/** Creates `define` helpers typed for the app's Hono env. */
export function createDefine<E extends Env>() {
  return {
    /** Declares the method handlers of a route. */
    handlers<H extends Handlers<E>>(handlers: H): H {
      return handlers;
    },
    /** Declares a page component whose `data` type is inferred from the handler. */
    page<H>(component: ComponentType<PageProps<DataOf<H>, E["Variables"]>>) {
      return component;
    },
    /** Declares a `_layout.tsx` component: it renders `Component` (the page, or the layout below) in its frame. */
    layout(component: ComponentType<LayoutProps<unknown, E["Variables"]>>) {
      return component;
    },
    /** Declares a middleware for a route folder. */
    middleware(fn: MiddlewareHandler<E>): MiddlewareHandler<E> {
      return fn;
    },
  };
}
