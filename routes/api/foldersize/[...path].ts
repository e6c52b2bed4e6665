import { define } from "../../../define.ts";
import { vpathOf } from "../../../middleware/requests.ts";
import { folderSizeStream } from "../../../lib/fs/folder_size_stream.ts";

export const handler = define.handlers({
  async GET(c) {
    const body = await folderSizeStream(c.var.ctx.gate, vpathOf(c), {
      cache: c.var.deps.folderSizes,
      signal: c.req.raw.signal,
    });
    return c.body(body, 200, { "Content-Type": "application/x-ndjson; charset=utf-8" });
  },
});
