import { define } from "../../../define.ts";
import { vpathOf } from "../../../middleware/requests.ts";
import { statusText } from "../../../lib/errors.ts";
import { readJsonObject } from "../../../lib/json_body.ts";
import { createShareLink, removeShareLink, sharesOfPath } from "../../../lib/shares.ts";

export const handler = define.handlers({
  async GET(c) {
    return c.json(await sharesOfPath(c.var.ctx, vpathOf(c)));
  },
  async POST(c) {
    const body = await readJsonObject(c.req.raw);
    const share = await createShareLink(c.var.ctx, {
      vpath: vpathOf(c),
      body,
    });
    c.set("auditNote", { target: share.hash });
    return c.json(share);
  },
  async DELETE(c) {
    await removeShareLink(c.var.ctx, c.req.param("path") ?? "");
    return c.text(statusText(200), 200);
  },
});
