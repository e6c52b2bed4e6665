import { define } from "../../../define.ts";
import { folderSizeStream } from "../../../lib/fs/folder_size_stream.ts";
import { gateContextOf } from "../../../lib/fs/gate.ts";

export const handler = define.handlers({
  async GET(c) {
    const body = await folderSizeStream(gateContextOf(c.var), "/" + c.req.param("path"), {
      cache: c.var.deps.folderSizes,
      signal: c.req.raw.signal,
    });
    return c.body(body, 200, { "Content-Type": "application/x-ndjson; charset=utf-8" });
  },
});
