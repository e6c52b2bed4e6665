import { define } from "../../../define.ts";
import { gateContextOf } from "../../../lib/fs/gate.ts";
import { openRaw } from "../../../lib/fs/raw.ts";

export const handler = define.handlers({
  async GET(c) {
    const d = await openRaw(gateContextOf(c.var), "/" + c.req.param("path"), {
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
