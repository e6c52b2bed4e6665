import { define } from "../../../../define.ts";
import type { AppContext } from "../../../../define.ts";
import { readJsonObject } from "../../../../lib/json_body.ts";
import { deleteUserAccount, toWireUser, updateUserFields } from "../../../../lib/users.ts";
import { users } from "../../../../lib/storage/mod.ts";
import { BadRequestError, ForbiddenError, NotFoundError, statusText } from "../../../../lib/errors.ts";
import { reauthThrottle } from "../../../../middleware/conn.ts";

function targetId(c: AppContext): number {
  const id = Number(c.req.param("id"));
  if (!Number.isSafeInteger(id) || id < 1) throw new NotFoundError("user_not_found");
  if (!c.var.user.perm.admin && c.var.user.id !== id) throw new ForbiddenError();
  return id;
}

function changedFields(which: unknown): string {
  if (!Array.isArray(which)) return "";
  return which.filter((w) => typeof w === "string").slice(0, 40).map((w) => w.slice(0, 40)).join(" ");
}

export const handler = define.handlers({
  async GET(c) {
    const user = await users.getUser(c.var.deps.kv, targetId(c));
    return c.json(toWireUser(user, { viewerIsAdmin: c.var.user.perm.admin }));
  },
  async PUT(c) {
    const id = targetId(c);
    const body = await readJsonObject(c.req.raw);
    if (body.what !== "user") throw new BadRequestError("invalid data type");
    // The names of the changed fields, never their values.
    c.set("auditNote", { detail: changedFields(body.which) });
    await updateUserFields(id, body, {
      kv: c.var.deps.kv,
      requester: c.var.user,
      minPasswordLength: c.var.settings.minimumPasswordLength,
      authMethod: c.var.deps.config.authMethod,
      sessionId: c.var.sessionId,
      reauthThrottle: reauthThrottle(c),
    });
    return c.text(statusText(200), 200);
  },
  async DELETE(c) {
    const id = targetId(c);
    await deleteUserAccount(id, {
      kv: c.var.deps.kv,
      requester: c.var.user,
      // No body at all is fine without json auth; with it, the missing "current_password" is named.
      body: await readJsonObject(c.req.raw, { allowEmpty: true }),
      authMethod: c.var.deps.config.authMethod,
      reauthThrottle: reauthThrottle(c),
    });
    return c.text(statusText(200), 200);
  },
});
