import { define } from "../../../define.ts";
import { vpathOf } from "../../../middleware/requests.ts";
import type { AppContext } from "../../../define.ts";
import { statusText } from "../../../lib/errors.ts";
import {
  appendUploadChunk,
  createUpload,
  getUploadStatus,
  terminateUpload,
  tusLocation,
} from "../../../lib/upload/mod.ts";

async function status(c: AppContext): Promise<Response> {
  const up = await getUploadStatus(c.var.ctx, vpathOf(c));
  c.header("Upload-Offset", String(up.offset));
  c.header("Upload-Length", String(up.length));
  c.header("Cache-Control", "no-store");
  return c.text(statusText(200), 200);
}

export const handler = define.handlers({
  async POST(c) {
    const up = await createUpload(c.var.ctx, vpathOf(c), {
      length: c.req.header("Upload-Length"),
      override: c.req.query("override") === "true",
    });
    if (up.complete) c.set("auditNote", { action: "file.upload", path: up.vpath, detail: "tus" });
    c.header("Location", tusLocation(c.var.deps.config.baseUrl, up.vpath));
    return c.text(statusText(201), 201);
  },
  // Hono answers HEAD through the GET handler (body dropped); both are listed for clarity.
  HEAD: status,
  GET: status,
  async PATCH(c) {
    const up = await appendUploadChunk(c.var.ctx, vpathOf(c), {
      offset: c.req.header("Upload-Offset"),
      contentType: c.req.header("Content-Type"),
      contentLength: c.req.header("Content-Length"),
      body: c.req.raw.body,
    });
    if (up.complete) c.set("auditNote", { action: "file.upload", path: up.vpath, detail: "tus" });
    c.header("Upload-Offset", String(up.offset));
    return c.body(null, 204);
  },
  async DELETE(c) {
    await terminateUpload(c.var.ctx, vpathOf(c));
    return c.body(null, 204);
  },
});
