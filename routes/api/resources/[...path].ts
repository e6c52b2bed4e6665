import { define } from "../../../define.ts";
import { vpathOf } from "../../../middleware/requests.ts";
import { statusText } from "../../../lib/errors.ts";
import { chunkedBody } from "../../../lib/fs/listing_json.ts";
import { getResourceJson } from "../../../lib/fs/resources.ts";
import { decodeDestination, patchResource } from "../../../lib/fs/transfer.ts";
import { deleteResource } from "../../../lib/fs/remove.ts";
import { saveResource, uploadResource } from "../../../lib/fs/write.ts";

const TEXT = { "Content-Type": "text/plain; charset=utf-8" };

export const handler = define.handlers({
  async GET(c) {
    const result = await getResourceJson(c.var.ctx.gate, vpathOf(c), {
      sorting: c.var.user.sorting,
      readHeaders: c.var.deps.config.typeDetectionByHeader,
      checksum: c.req.query("checksum"),
      rawText: c.req.header("X-Encoding") === "true",
      signal: c.req.raw.signal,
      listings: c.var.deps.listings,
    });
    if (result.raw) return c.body(result.raw, 200, { "Content-Type": "application/octet-stream" });
    return c.body(chunkedBody(result.json), 200, { "Content-Type": "application/json" });
  },
  async POST(c) {
    const { etag } = await uploadResource(c.var.ctx, vpathOf(c), c.req.raw.body, {
      override: c.req.query("override") === "true",
      signal: c.req.raw.signal,
    });
    return c.body(statusText(200), 200, etag ? { ...TEXT, ETag: etag } : TEXT);
  },
  async PUT(c) {
    const { etag } = await saveResource(c.var.ctx, vpathOf(c), c.req.raw.body, {
      signal: c.req.raw.signal,
    });
    return c.body(statusText(200), 200, { ...TEXT, ETag: etag });
  },
  async DELETE(c) {
    await deleteResource(c.var.ctx, vpathOf(c), {
      permanent: c.req.query("permanent") === "true",
    });
    return c.body(null, 204);
  },
  async PATCH(c) {
    await patchResource(c.var.ctx, vpathOf(c), {
      action: c.req.query("action") ?? "",
      destination: decodeDestination(c.req.query("destination")),
      override: c.req.query("override") === "true",
      rename: c.req.query("rename") === "true",
      signal: c.req.raw.signal,
    });
    return c.body(statusText(200), 200, TEXT);
  },
});
