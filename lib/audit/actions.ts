/**
 * Which requests the audit middleware records, and as what: a table of route + method → action. Reads only the
 * URL, the method, the status and a few headers, never a body.
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
}

/** What to record about a request. */
export interface AuditAction {
  action: string;
  path?: string;
  target?: string;
  detail?: string;
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
      if (r.method !== "GET") return null;
      // /api/public/{share,dl}/<hash>/<path inside the share>
      const hash = decode(segs[4] ?? "");
      const inner = decode("/" + segs.slice(5).join("/"));
      return { action: "share.use", path: inner, target: hash, detail: segs[3] === "dl" ? "download" : "" };
    }
    case "users": {
      const id = segs[3] ?? "";
      if (!id) return r.method === "POST" ? { action: "user.create" } : null;
      const target = `user:${decode(id)}`;
      if (segs[4]) return read ? null : { action: `user.${decode(segs[4])}`, target, detail: r.method };
      if (r.method === "PUT") return { action: "user.update", target };
      return r.method === "DELETE" ? { action: "user.delete", target } : null;
    }
    case "settings":
      return r.method === "PUT" ? { action: "settings.update" } : null;
    case "command":
      return r.method === "GET" ? { action: "command.run", path: rest } : null;
  }
  // Every other change through the API, by route and method.
  if (read) return null;
  return { action: `api.${route}`, path: rest, detail: r.method };
}
