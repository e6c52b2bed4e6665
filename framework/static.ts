/** Serves files of one directory under a URL prefix (GET/HEAD only), with content types and cache headers. */
import type { Context } from "hono";

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  map: "application/json; charset=utf-8",
  json: "application/json; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  ico: "image/x-icon",
  webp: "image/webp",
  woff2: "font/woff2",
  woff: "font/woff",
  txt: "text/plain; charset=utf-8",
  webmanifest: "application/manifest+json",
};

/** Returns a Response for `rel` inside `dir`, or null when there is no such file. Never leaves `dir`. */
export async function serveFile(
  c: Context,
  dir: string,
  rel: string,
  options: { maxAge: number },
): Promise<Response | null> {
  const segs = rel.split("/").filter(Boolean);
  if (segs.some((s) => s === ".." || s === "." || s.includes("\\") || s.startsWith("."))) return null;
  const path = `${dir}/${segs.join("/")}`;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch {
    return null;
  }
  const st = await file.stat();
  if (!st.isFile) {
    file.close();
    return null;
  }
  const etag = `"${st.size.toString(16)}-${(st.mtime?.getTime() ?? 0).toString(16)}"`;
  const headers: Record<string, string> = {
    "Content-Type": TYPES[path.split(".").pop()!.toLowerCase()] ?? "application/octet-stream",
    "Cache-Control": `public, max-age=${options.maxAge}`,
    ETag: etag,
  };
  if (c.req.header("If-None-Match") === etag) {
    file.close();
    return new Response(null, { status: 304, headers });
  }
  headers["Content-Length"] = String(st.size);
  if (c.req.method === "HEAD") {
    file.close();
    return new Response(null, { status: 200, headers });
  }
  return new Response(file.readable, { status: 200, headers });
}
