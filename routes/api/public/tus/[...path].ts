import { define } from "../../../../define.ts";
import type { AppContext } from "../../../../define.ts";
import { statusText } from "../../../../lib/errors.ts";
import {
  appendDropChunk,
  createDropUpload,
  dropInfo,
  dropLocation,
  dropUploadStatus,
} from "../../../../lib/drop.ts";
import { clientAddress } from "../../../../middleware/conn.ts";

function dropRequestOf(c: AppContext) {
  return {
    rest: c.req.param("path") ?? "",
    credentials: {
      password: c.req.header("X-SHARE-PASSWORD"),
      token: c.req.query("token"),
      client: clientAddress(c),
    },
  };
}

export const handler = define.handlers({
  async POST(c) {
    const req = dropRequestOf(c);
    const up = await createDropUpload(c.var.deps, c.var.settings, {
      ...req,
      length: c.req.header("Upload-Length"),
    });
    const hash = req.rest.split("/")[0];
    // The name the server chose (" (1)" when taken) goes to the audit log, never to the visitor; an empty file
    // is in place at once.
    c.set("auditNote", up.complete ? { action: "share.drop", path: `/${up.name}` } : { path: `/${up.name}` });
    c.header("Location", dropLocation(c.var.deps.config.baseUrl, hash, up.id, up.token));
    return c.text(statusText(201), 201);
  },
  // Hono answers HEAD through GET: on an upload (addressed by its id) it is the tus offset query, on the link
  // itself the drop page's look at the link's name and limits (after the password).
  async GET(c) {
    const req = dropRequestOf(c);
    c.header("Cache-Control", "no-store");
    if (!req.rest.includes("/")) return c.json(await dropInfo(c.var.deps, c.var.settings, req));
    const up = await dropUploadStatus(c.var.deps, c.var.settings, req);
    c.header("Upload-Offset", String(up.offset));
    c.header("Upload-Length", String(up.length));
    return c.text(statusText(200), 200);
  },
  async PATCH(c) {
    const req = dropRequestOf(c);
    const up = await appendDropChunk(c.var.deps, c.var.settings, {
      ...req,
      chunk: {
        offset: c.req.header("Upload-Offset"),
        contentType: c.req.header("Content-Type"),
        contentLength: c.req.header("Content-Length"),
        body: c.req.raw.body,
      },
    });
    // The last chunk: a visitor's file landed in the owner's folder.
    if (up.complete) {
      // The name the file landed under (the URL holds the upload's id, not its name).
      c.set("auditNote", {
        action: "share.drop",
        target: req.rest.slice(0, req.rest.indexOf("/")),
        path: up.vpath,
      });
    }
    c.header("Upload-Offset", String(up.offset));
    return c.body(null, 204);
  },
});
