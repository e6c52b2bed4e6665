import { define } from "../../../define.ts";
import { statusText } from "../../../lib/errors.ts";
import { gateContextOf } from "../../../lib/fs/gate.ts";
import { readJsonObject } from "../../../lib/json_body.ts";
import { createShareLink, removeShareLink, sharesOfPath } from "../../../lib/shares.ts";
import { requireUser } from "../../../middleware/require_user.ts";

export const middleware = requireUser();

export const handler = define.handlers({
  async GET(c) {
    const actor = { user: c.var.user, ctx: gateContextOf(c.var) };
    return c.json(await sharesOfPath(c.var.deps, actor, "/" + (c.req.param("path") ?? "")));
  },
  async POST(c) {
    const actor = { user: c.var.user, ctx: gateContextOf(c.var) };
    const body = await readJsonObject(c.req.raw);
    const share = await createShareLink(c.var.deps, actor, {
      vpath: "/" + (c.req.param("path") ?? ""),
      body,
    });
    c.set("auditNote", { target: share.hash });
    return c.json(share);
  },
  async DELETE(c) {
    await removeShareLink(c.var.deps, c.var.user, c.req.param("path") ?? "");
    return c.text(statusText(200), 200);
  },
});
