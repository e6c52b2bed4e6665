/** Mounts the file routes of a generated manifest on a Hono app, and renders pages with island scripts. */
import type { Context, Hono, MiddlewareHandler } from "hono";
import { Fragment, h } from "preact";
import type { ComponentChildren, ComponentType, VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import { beginIslandCollection, endIslandCollection, nameIslands } from "./island.tsx";
import { isPageResult } from "./define.ts";
import { beginHeadCollection, endHeadCollection } from "./head.ts";
import type { Handlers, LayoutProps, Method, PageProps, RouteConfig } from "./define.ts";
import { DEPS_FILE } from "./build.ts";
import { PARTIAL_HEADER, PARTIAL_MAIN, setPartialRender } from "./render_context.ts";

/** A route module as imported from routes/. */
// deno-lint-ignore no-explicit-any -- route modules are typed against the app's own env, unknown to the framework
type AnyEnv = any;
export interface RouteModule {
  handler?: Handlers<AnyEnv>;
  default?: ComponentType<AnyEnv>;
  middleware?: MiddlewareHandler<AnyEnv> | MiddlewareHandler<AnyEnv>[];
  /** Options of a page route or a `_layout.tsx` (skipping the layouts of the folders above). */
  config?: RouteConfig;
  /** Only in `_error.tsx`: statuses that also get a page of their own at `/<status>` (e.g. a redirect target). */
  statusPages?: number[];
}

/** The data of the `_error.tsx` page. */
export interface ErrorPageData {
  status: number;
}

/** Renders `_error.tsx` for a status; null when the app has no error page. */
export type ErrorRenderer = (c: Context, status: number) => Response | null;

/** The generated manifest (routes.gen.ts). */
export interface Manifest {
  routes: Record<string, RouteModule>;
  islands: Record<string, Record<string, unknown>>;
}

/** Props of routes/_app.tsx, the document shell. */
export interface AppShellProps {
  children: unknown;
  title?: string;
  url: string;
  state: unknown;
  status: number;
  request: Request;
  /** A partial render (see PARTIAL_HEADER): render the title and the children only, no document. */
  partial?: boolean;
}

/** The JSON answer of a partial render (docs/architecture.md, "Client-side navigation"). */
export interface PartialPage {
  /** The page's HTML without the document shell: a `<title>`, the page's own nodes and its layout's `<main>`. */
  html: string;
  /** Extra head nodes of the page (stylesheets), as HTML. */
  head: string;
  /** Script URLs of the islands the partial uses. */
  scripts: string[];
}

/** Options of mountManifest. */
export interface MountOptions {
  /** URL prefix under which bundles are served, e.g. "/base/_islands". */
  islandsUrl: string;
  /** Directory holding the bundles and their deps file (for modulepreload links). */
  islandsDir?: string;
}

let depsCache: { dir: string; mtime: number; deps: Record<string, string[]> } | null = null;

function islandChunks(dir: string | undefined): Record<string, string[]> {
  if (!dir) return {};
  // Re-read when a rebuild replaced the file (dev mode); one stat per page render.
  const st = (() => {
    try {
      return Deno.statSync(`${dir}/${DEPS_FILE}`);
    } catch {
      return null;
    }
  })();
  const mtime = st?.mtime?.getTime() ?? 0;
  if (!st) return {};
  if (depsCache?.dir !== dir || depsCache.mtime !== mtime) {
    depsCache = { dir, mtime, deps: JSON.parse(Deno.readTextFileSync(`${dir}/${DEPS_FILE}`)) };
  }
  return depsCache.deps;
}

const METHODS: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/**
 * Matches any rest of a path. Not `.*`: a regex dot stops at CR, LF, U+2028 and U+2029, so names holding them
 * would fall outside every route (a file that can be created but never read, renamed or deleted).
 */
export const REST_PATTERN = "[\\s\\S]*";

/** Converts `routes/a/[id]/[...path].ts` into a Hono path `/a/:id/:path{[\s\S]*}`. */
export function routePathOf(file: string): string {
  const rel = file.replace(/^routes\//, "").replace(/\.(tsx?|jsx?)$/, "");
  const segs = rel.split("/").filter((s) => !/^\(.*\)$/.test(s));
  if (segs[segs.length - 1] === "index") segs.pop();
  const out = segs.map((s) => {
    const rest = s.match(/^\[\.\.\.(\w+)\]$/);
    if (rest) return `:${rest[1]}{${REST_PATTERN}}`;
    const param = s.match(/^\[(\w+)\]$/);
    if (param) return `:${param[1]}`;
    return s;
  });
  return "/" + out.join("/");
}

function rank(file: string): number[] {
  return file.replace(/^routes\//, "").split("/").map((
    s,
  ) => (s.startsWith("[...") ? 2 : s.startsWith("[") ? 1 : 0));
}

function compareRoutes(a: string, b: string): number {
  const ra = rank(a), rb = rank(b);
  for (let i = 0; i < Math.min(ra.length, rb.length); i++) if (ra[i] !== rb[i]) return ra[i] - rb[i];
  return rb.length - ra.length || a.localeCompare(b);
}

/** A `_layout.tsx` component. */
export type LayoutComponent = ComponentType<LayoutProps<unknown>>;

/**
 * The layouts around a page file, outermost first: the `_layout.tsx` of every folder from `routes/` down to the
 * file's own. A layout with `config.skipInheritedLayouts` drops those above it; a page with it gets none.
 */
export function layoutsOf(manifest: Manifest, file: string): LayoutComponent[] {
  if (manifest.routes[file]?.config?.skipInheritedLayouts) return [];
  const dirs = file.split("/").slice(0, -1);
  let out: LayoutComponent[] = [];
  for (let i = 1; i <= dirs.length; i++) {
    const dir = dirs.slice(0, i).join("/");
    const mod = manifest.routes[`${dir}/_layout.tsx`] ?? manifest.routes[`${dir}/_layout.ts`];
    if (!mod?.default) continue;
    if (mod.config?.skipInheritedLayouts) out = [];
    out.push(mod.default as LayoutComponent);
  }
  return out;
}

/** The page wrapped in its layouts: each layout gets the page props and `Component`, what it wraps. */
function withLayouts(
  page: ComponentType<PageProps<unknown>>,
  layouts: LayoutComponent[],
  props: PageProps<unknown>,
): VNode {
  let inner: ComponentType = () => h(page, props);
  for (const layout of [...layouts].reverse()) {
    const child: ComponentType = inner;
    inner = (): VNode => h(layout, { ...props, Component: child }) as VNode;
  }
  return h(inner, null);
}

/** Renders a page component inside routes/_app.tsx and injects the scripts of the islands it used. */
export function renderPage(
  c: Context,
  options: {
    manifest: Manifest;
    component: ComponentType<PageProps<unknown>>;
    /** The page's layouts, outermost first (see layoutsOf). */
    layouts?: LayoutComponent[];
    data: unknown;
    status?: number;
    title?: string;
    head?: ComponentChildren;
    islandsUrl: string;
    islandsDir?: string;
  },
): Response {
  const shell = options.manifest.routes["routes/_app.tsx"]?.default as unknown as
    | ComponentType<AppShellProps>
    | undefined;
  const params = c.req.param() as Record<string, string>;
  const props: PageProps<unknown> = { data: options.data, url: c.req.url, params, state: c.var };
  const status = options.status ?? 200;
  const partial = c.req.method === "GET" && c.req.header(PARTIAL_HEADER) === PARTIAL_MAIN;
  // Both answers live at one URL: caches must key on the header.
  c.header("Vary", PARTIAL_HEADER, { append: true });
  setPartialRender(partial);
  beginIslandCollection();
  beginHeadCollection();
  let html: string;
  let islands: string[] = [];
  let headNodes: ComponentChildren[] = [];
  try {
    const body = withLayouts(options.component, options.layouts ?? [], props);
    const tree = shell
      ? h(shell, {
        children: body,
        title: options.title,
        url: c.req.url,
        state: c.var,
        status,
        request: c.req.raw,
        partial,
      })
      : body;
    html = renderToString(tree as ReturnType<typeof h>);
  } finally {
    // Always reset the collectors, even when rendering throws.
    setPartialRender(false);
    islands = endIslandCollection();
    headNodes = endHeadCollection();
  }
  // Module scripts run after parsing wherever they sit, so they go in the head with the rest.
  const scripts = islands.map((n) => `<script type="module" src="${options.islandsUrl}/${n}.js"></script>`);
  // Preload every chunk the islands import, so the browser fetches them in parallel with the entries.
  const deps = islandChunks(options.islandsDir);
  const chunks = [...new Set(islands.flatMap((n) => deps[n] ?? []))];
  const preload = chunks.map((f) => `<link rel="modulepreload" href="${options.islandsUrl}/${f}">`);
  const extra = [options.head, ...headNodes].map((n) => renderToString(h(Fragment, null, n))).filter(Boolean);
  if (partial) {
    const answer: PartialPage = {
      html,
      head: [...new Set(extra)].join(""),
      scripts: islands.map((n) => `${options.islandsUrl}/${n}.js`),
    };
    c.header("Cache-Control", "no-store");
    return c.json(answer, status as 200);
  }
  const head = [...new Set([...extra, ...preload, ...scripts])].join("");
  const end = html.indexOf("</head>");
  html = end >= 0 ? html.slice(0, end) + head + html.slice(end) : head + html;
  return c.html("<!doctype html>" + html, status as 200);
}

/**
 * Registers middlewares and handlers of every route file, most specific routes first, and the status pages of
 * `_error.tsx`. Returns the renderer of the error page, for the app's error handler.
 */
export function mountManifest(app: Hono, manifest: Manifest, options: MountOptions): ErrorRenderer {
  nameIslands(manifest.islands);
  const files = Object.keys(manifest.routes);
  const middlewares = files.filter((f) => /\/_middleware\.tsx?$/.test(f)).sort((a, b) => a.length - b.length);
  const dirOf = (f: string) => f.replace(/\/_middleware\.tsx?$/, "");
  // A group folder `(name)` adds nothing to the URL, so its middleware cannot go by path: it runs for the route
  // files inside the group only, after the path-based middleware of the folders above.
  const inGroup = (dir: string) => /\/\([^/]*\)(\/|$)/.test(dir);
  const groupMiddlewareOf = (route: string) =>
    middlewares.filter((m) => inGroup(dirOf(m)) && route.startsWith(dirOf(m) + "/"))
      .flatMap((m) => [manifest.routes[m].middleware ?? []].flat());
  for (const f of middlewares) {
    const dir = dirOf(f);
    if (inGroup(dir)) continue;
    const base = routePathOf(dir + "/index.ts");
    const mws = [manifest.routes[f].middleware ?? []].flat();
    for (const mw of mws) {
      // Hono's `/a/*` matches `/a` too: one registration, so the folder's own index runs it once.
      app.use(base === "/" ? "*" : `${base}/*`, mw);
    }
  }
  const errorModule = manifest.routes["routes/_error.tsx"];
  const errorPage = errorModule?.default;
  // The error page sits in `routes/`: the root layout wraps it unless it skips inherited layouts.
  const errorLayouts = layoutsOf(manifest, "routes/_error.tsx");
  const renderError: ErrorRenderer = (c, status) => {
    if (!errorPage) return null;
    const data: ErrorPageData = { status };
    return renderPage(c, { ...options, manifest, component: errorPage, layouts: errorLayouts, data, status });
  };
  for (const status of errorModule?.statusPages ?? []) {
    const own = [errorModule.middleware ?? []].flat();
    (app as AnyEnv).get(`/${status}`, ...own, (c: Context) => renderError(c, status));
  }
  const routes = files.filter((f) => !/\/_[^/]+$/.test(f)).sort(compareRoutes);
  for (const f of routes) {
    const mod = manifest.routes[f];
    const path = routePathOf(f);
    const handlers = mod.handler ?? {};
    const component = mod.default;
    const layouts = layoutsOf(manifest, f);
    const own = [...groupMiddlewareOf(f), ...[mod.middleware ?? []].flat()];
    for (const method of METHODS) {
      const fn = handlers[method];
      if (!fn && !(method === "GET" && component)) continue;
      (app as AnyEnv).on(method, path, ...own, async (c: Context) => {
        const result = fn ? await fn(c) : null;
        if (result instanceof Response) return result;
        if (!component) throw new Error(`${f}: handler returned page() but the route has no page component`);
        const pageResult = isPageResult(result) ? result : null;
        return renderPage(c, {
          manifest,
          component,
          layouts,
          data: pageResult?.data,
          status: pageResult?.status,
          title: pageResult?.title,
          head: pageResult?.head,
          islandsUrl: options.islandsUrl,
          islandsDir: options.islandsDir,
        });
      });
    }
  }
  return renderError;
}
