import { define } from "../../../../define.ts";
import { vpathOf } from "../../../../middleware/requests.ts";
import { openPreview } from "../../../../lib/fs/preview.ts";

export const handler = define.handlers({
  async GET(c) {
    const config = c.var.deps.config;
    const d = await openPreview(c.var.ctx.gate, c.req.param("size") ?? "", vpathOf(c), {
      inline: c.req.query("inline") === "true",
      range: c.req.header("Range"),
      ifNoneMatch: c.req.header("If-None-Match"),
      ifModifiedSince: c.req.header("If-Modified-Since"),
      enableThumbs: config.enableThumbs,
      resizePreview: config.resizePreview,
      previews: c.var.ctx.previews,
    });
    return new Response(d.body, { status: d.status, headers: d.headers });
  },
});
