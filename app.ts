/** createApp(deps): the Hono app with global middleware, the one error handler and the routes of the manifest. */
import { PROJECT_ROOT } from "./lib/project_root.ts";
import { Hono } from "hono";
import type { Context } from "hono";
import { manifest } from "./routes.gen.ts";
import { mountManifest } from "./framework/router.ts";
import { serveFile } from "./framework/static.ts";
import { BUILD_DIR } from "./framework/build.ts";
import { statusText, toHttpError } from "./lib/errors.ts";
import { log } from "./lib/log.ts";
import { safeRedirect } from "./lib/redirect.ts";
import type { AppDeps, AppEnv } from "./lib/state.ts";
import { securityHeaders } from "./middleware/security_headers.ts";
import { requestLog } from "./middleware/request_log.ts";
import { requestActivity } from "./middleware/request_activity.ts";
import { cleanPath } from "./middleware/clean_path.ts";
import { webdavAuth } from "./middleware/webdav_auth.ts";
import { remoteAddress } from "./middleware/conn.ts";
import { DAV_METHODS, davContextOf, handleDav } from "./lib/webdav/mod.ts";
import { usageInvalidation } from "./middleware/usage_invalidation.ts";
import { auditTrail } from "./middleware/audit_trail.ts";

const HERE = PROJECT_ROOT;

function isApi(c: Context, baseUrl: string): boolean {
  const rel = new URL(c.req.url).pathname.slice(baseUrl.length);
  // WebDAV answers errors as plain text too (no login redirect, no error page).
  return rel.startsWith("/api/") || rel === "/dav" || rel.startsWith("/dav/");
}

/** Builds the application around its dependencies. Tests call `createApp(deps).request(...)`. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const base = deps.config.baseUrl;
  const root = new Hono<AppEnv>();
  const app = base ? root.basePath(base) : root;

  // Background work (the search index's reads) waits while requests are in flight (lib/request_activity.ts).
  app.use("*", requestActivity(deps.activity));
  app.use("*", requestLog());
  app.use("*", securityHeaders({ loginPath: `${base}/login`, captchaHost: deps.config.recaptcha?.host }));
  app.use("*", cleanPath({ baseUrl: base }));
  // Static assets and the health check need neither settings nor a user: they answer before loadState runs.
  app.all("/health", (c) => c.json({ status: "OK" }));
  app.on(["GET", "HEAD"], "/static/:file{[\\s\\S]+}", async (c) => {
    return await serveFile(c, `${HERE}/static`, c.req.param("file"), { maxAge: 86400 }) ?? c.notFound();
  });
  app.on(["GET", "HEAD"], "/_islands/:file{[\\s\\S]+}", async (c) => {
    return await serveFile(c, `${HERE}/${BUILD_DIR}/islands`, c.req.param("file"), { maxAge: 3600 }) ??
      c.notFound();
  });
  app.use("*", async function loadState(c, next) {
    c.set("deps", deps);
    // From memory on a warm request: the app's state cache (lib/storage/state_cache.ts) drops its copy when the
    // settings are saved here or, through a KV watch, by another instance.
    c.set("settings", await deps.cache.settings());
    await next();
  });
  // Changes are recorded in the audit log once answered (lib/audit/).
  app.use("*", auditTrail(base));
  // Writes drop the cached scope usage of quota users (lib/quota.ts).
  app.use("*", usageInvalidation());

  if (deps.config.webdav) {
    app.on(
      [...DAV_METHODS],
      ["/dav", "/dav/*"],
      webdavAuth(),
      (c) => handleDav({ ...davContextOf(c.var.ctx, c.req.raw), peer: remoteAddress(c) }),
    );
  }

  const renderError = mountManifest(app as unknown as Hono, manifest, {
    islandsUrl: `${base}/_islands`,
    islandsDir: `${HERE}/${BUILD_DIR}/islands`,
  });

  root.notFound((c) => {
    if (c.req.method !== "GET" || isApi(c, base)) {
      return c.body(statusText(404), 404, { "Content-Type": "text/plain; charset=utf-8" });
    }
    // Unknown page paths go under /files, as the SPA did.
    const rel = new URL(c.req.url).pathname.slice(base.length) || "/";
    return c.redirect(`${base}/files${rel === "/" ? "/" : rel}`, 302);
  });

  root.onError((err, c) => {
    const httpErr = toHttpError(err);
    if (httpErr.status >= 500 && httpErr.expose) {
      // A deliberate, explained failure (e.g. a hook that vetoed): already logged where it happened.
      log.warn(`${c.req.method} ${c.req.url}: ${httpErr.code}: ${httpErr.message}`);
    } else if (httpErr.status === 500) {
      // Only the unexpected is an ERROR; a deliberate 501/503 (no preview for the type, a tool missing) is
      // already a WARN line of the request log.
      log.error(`${c.req.method} ${c.req.url}: ${httpErr.code}`, httpErr.cause ?? err);
    }
    for (const [k, v] of Object.entries(httpErr.headers)) c.header(k, v);
    const isPage = !isApi(c, base);
    if (isPage && httpErr.status === 401 && (c.req.method === "GET" || c.req.method === "HEAD")) {
      // The one way to the login: page guards throw 401 (middleware/require_page_user.ts); the target comes back.
      const url = new URL(c.req.url);
      const target = safeRedirect(url.pathname.slice(base.length) + url.search, { baseUrl: base });
      return c.redirect(`${base}/login?redirect=${encodeURIComponent(target)}`, 302);
    }
    if (isPage && c.req.method === "GET") {
      const page = renderError(c, httpErr.status);
      if (page) return page;
    }
    const body = statusText(httpErr.status, httpErr.expose ? httpErr.message : undefined);
    return c.body(body, httpErr.status as 400, { "Content-Type": "text/plain; charset=utf-8" });
  });

  return root;
}
