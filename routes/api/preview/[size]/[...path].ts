import { define } from "../../../../define.ts";
import { gateContextOf } from "../../../../lib/fs/gate.ts";
import { openPreview } from "../../../../lib/fs/preview.ts";
import { previewServiceFor } from "../../../../lib/fs/request.ts";

export const handler = define.handlers({
  async GET(c) {
    const config = c.var.deps.config;
    const d = await openPreview(gateContextOf(c.var), c.req.param("size") ?? "", "/" + c.req.param("path"), {
      inline: c.req.query("inline") === "true",
      range: c.req.header("Range"),
      ifNoneMatch: c.req.header("If-None-Match"),
      ifModifiedSince: c.req.header("If-Modified-Since"),
      enableThumbs: config.enableThumbs,
      resizePreview: config.resizePreview,
      previews: previewServiceFor(config.cacheDir),
    });
    return new Response(d.body, { status: d.status, headers: d.headers });
  },
});
