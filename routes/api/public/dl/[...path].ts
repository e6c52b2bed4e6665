import { define } from "../../../../define.ts";
import { openShare, publicDownload, splitSharePath } from "../../../../lib/shares.ts";
import { remoteAddress } from "../../../../middleware/conn.ts";
import type { AppContext } from "../../../../define.ts";

function shareRequestOf(c: AppContext) {
  return {
    ...splitSharePath(c.req.param("path") ?? ""),
    credentials: {
      password: c.req.header("X-SHARE-PASSWORD"),
      token: c.req.query("token"),
      client: remoteAddress(c) ?? "local",
    },
  };
}

export const handler = define.handlers({
  async GET(c) {
    const opened = await openShare(c.var.deps, c.var.settings, shareRequestOf(c));
    const d = await publicDownload(opened, {
      inline: c.req.query("inline") === "true",
      files: c.req.query("files"),
      algo: c.req.query("algo"),
      range: c.req.header("Range"),
      ifNoneMatch: c.req.header("If-None-Match"),
      ifModifiedSince: c.req.header("If-Modified-Since"),
      ifUnmodifiedSince: c.req.header("If-Unmodified-Since"),
      ifRange: c.req.header("If-Range"),
      signal: c.req.raw.signal,
    });
    return new Response(d.body, { status: d.status, headers: d.headers });
  },
});
