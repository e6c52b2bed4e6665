/**
 * Which requests the audit middleware records, and as what: a table of route + method → action. Reads only the
 * URL, the method, the status and a few headers, never a body. An action name is never made of request text:
 * unknown routes are one fixed action with the path cut short, so a client cannot mint actions of its own.
 */
import { parentPath } from "../url_path.ts";

/** A request as the classifier sees it. */
export interface AuditRequest {
  method: string;
  /** Path below the base URL, still percent-encoded: "/api/resources/a%20b". */
  path: string;
  query: URLSearchParams;
  headers: Headers;
  status: number;
  /** The error code of a refused request, when the route threw one (`share_password_wrong`). */
  code?: string;
}

/** What to record about a request. */
export interface AuditAction {
  action: string;
  path?: string;
  target?: string;
  detail?: string;
}

/**
 * The first segments of `/api/<route>/…` that exist (routes/api, group folders left out); `lib/audit/actions_test.ts`
 * checks the list against the route folder.
 */
export const API_ROUTES: readonly string[] = [
  "apppasswords",
  "audit",
  "command",
  "extract",
  "foldersize",
  "login",
  "logout",
  "preview",
  "public",
  "publish",
  "raw",
  "renew",
  "resources",
  "search",
  "settings",
  "share",
  "shares",
  "signup",
  "subtitle",
  "trash",
  "tus",
  "twofa",
  "usage",
  "users",
];

/** Sub-resources of `/api/users/<id>/…`, recorded as `user.<name>`. */
const USER_PARTS = ["apppasswords", "twofa"];

/** How much of an unknown route's path is kept: enough to tell a scanner's probe, never a payload. */
export const UNKNOWN_PATH_MAX = 64;

/** The one action of every request to an API route that does not exist. */
export const UNKNOWN_ACTION = "api.unknown";

function unknownRoute(r: AuditRequest): AuditAction {
  return {
    action: UNKNOWN_ACTION,
    path: decode(r.path.slice("/api".length)).slice(0, UNKNOWN_PATH_MAX),
    detail: r.method.slice(0, 16),
  };
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The PATCH destination is encoded twice by clients (as in lib/fs/transfer.ts); `+` is a space. */
function destination(q: URLSearchParams): string {
  const v = q.get("destination");
  return v ? decode(v.replaceAll("+", " ")) : "";
}

function resources(r: AuditRequest, p: string): AuditAction | null {
  switch (r.method) {
    case "POST": {
      if (p.endsWith("/")) return { action: "file.mkdir", path: p };
      // "New file" sends an empty body; an upload has content (or no length, when streamed in chunks).
      const empty = r.headers.get("Content-Length") === "0";
      return { action: empty ? "file.create" : "file.upload", path: p };
    }
    case "PUT":
      return { action: "file.save", path: p };
    case "DELETE":
      return {
        action: "file.delete",
        path: p,
        detail: r.query.get("permanent") === "true" ? "permanent" : "",
      };
    case "PATCH": {
      const to = destination(r.query);
      const kind = r.query.get("action") === "copy"
        ? "file.copy"
        : parentPath(to) === parentPath(p)
        ? "file.rename"
        : "file.move";
      return { action: kind, path: p, target: to };
    }
  }
  return null;
}

/**
 * A drop link's tus requests (`/api/public/tus/<hash>[/<name>]`): the page's look at the link (with its
 * password), every upload a visitor starts (refused ones too: a wrong password, a limit) and a refused chunk.
 * The upload that lands is noted by the route (`share.drop`, its last chunk).
 */
function drop(r: AuditRequest, hash: string, name: string): AuditAction | null {
  const detail = r.status >= 400 ? r.code ?? "" : "";
  if (r.method === "GET" && name === "/") {
    return { action: "share.use", path: name, target: hash, detail: "drop" };
  }
  if (r.method === "POST") return { action: "share.drop_start", path: name, target: hash, detail };
  if (r.method === "PATCH" && r.status === 401) {
    return { action: "share.drop", path: name, target: hash, detail };
  }
  return null;
}

function dav(r: AuditRequest, p: string): AuditAction | null {
  // A client's first request without credentials is the Basic challenge, not a failure worth a line.
  if (r.status === 401 && !r.headers.has("Authorization")) return null;
  const dest = r.headers.get("Destination");
  let target = "";
  if (dest) {
    try {
      const pathname = new URL(dest, "http://x").pathname;
      const at = pathname.indexOf("/dav/");
      target = decode(at >= 0 ? pathname.slice(at + 4) : pathname);
    } catch {
      target = "";
    }
  }
  const actions: Record<string, string> = {
    PUT: "file.save",
    DELETE: "file.delete",
    MKCOL: "file.mkdir",
    MOVE: "file.move",
    COPY: "file.copy",
  };
  const action = actions[r.method];
  return action ? { action, path: p, target, detail: "webdav" } : null;
}

/** The action a request stands for, or null when it is not recorded (reads, chunks, logins). */
export function classify(r: AuditRequest): AuditAction | null {
  const segs = r.path.split("/");
  if (segs[1] === "dav") return dav(r, decode("/" + segs.slice(2).join("/")));
  if (segs[1] !== "api") return null;
  const route = segs[2] ?? "";
  const rest = decode("/" + segs.slice(3).join("/"));
  const read = r.method === "GET" || r.method === "HEAD" || r.method === "OPTIONS";
  switch (route) {
    // Recorded by lib/auth with the username tried; renewals are not events.
    case "login":
    case "renew":
      return null;
    case "logout":
      return r.method === "POST" ? { action: "logout" } : null;
    case "signup":
      return r.method === "POST" ? { action: "user.signup" } : null;
    case "resources":
      return resources(r, rest);
    case "tus":
      // Creating an upload is one event and its last chunk another (noted by the route); other chunks and
      // status probes are none.
      if (r.method === "POST") return { action: "file.upload_start", path: rest, detail: "tus" };
      return r.method === "DELETE" ? { action: "file.upload_cancel", path: rest } : null;
    case "raw": {
      // A partial answer is a player seeking in a file already counted.
      if (r.method !== "GET" || r.status === 206) return null;
      const algo = r.query.get("algo") ?? "";
      const files = r.query.get("files") !== null;
      return { action: "file.download", path: rest, detail: algo || files ? `archive ${algo}`.trim() : "" };
    }
    case "extract":
      return r.method === "POST"
        ? { action: "file.extract", path: rest, target: r.query.get("destination") ?? "" }
        : null;
    case "trash":
      if (r.method === "POST") return { action: "trash.restore", target: rest.slice(1) };
      if (r.method === "DELETE") {
        return rest === "/" ? { action: "trash.empty" } : { action: "trash.purge", target: rest.slice(1) };
      }
      return null;
    case "share":
      if (r.method === "POST") return { action: "share.create", path: rest };
      return r.method === "DELETE" ? { action: "share.delete", target: rest.slice(1) } : null;
    case "public": {
      // /api/public/{share,dl,tus}/<hash>/<path inside the share>
      const hash = decode(segs[4] ?? "");
      const inner = decode("/" + segs.slice(5).join("/"));
      if (segs[3] === "tus") return drop(r, hash, inner);
      if (r.method !== "GET") return read ? null : unknownRoute(r);
      return { action: "share.use", path: inner, target: hash, detail: segs[3] === "dl" ? "download" : "" };
    }
    case "users": {
      const id = segs[3] ?? "";
      if (!id) return r.method === "POST" ? { action: "user.create" } : null;
      const target = `user:${decode(id).slice(0, 32)}`;
      if (segs[4]) {
        if (read) return null;
        return USER_PARTS.includes(segs[4])
          ? { action: `user.${segs[4]}`, target, detail: r.method }
          : unknownRoute(r);
      }
      if (r.method === "PUT") return { action: "user.update", target };
      return r.method === "DELETE" ? { action: "user.delete", target } : null;
    }
    case "settings":
      return r.method === "PUT" ? { action: "settings.update" } : null;
    case "command":
      return r.method === "GET" ? { action: "command.run", path: rest } : null;
  }
  // Every other change through the API, by route and method; a route that does not exist is one fixed action.
  if (read) return null;
  if (!API_ROUTES.includes(route)) return unknownRoute(r);
  return { action: `api.${route}`, path: rest, detail: r.method };
}
