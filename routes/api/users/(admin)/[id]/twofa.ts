import { define } from "../../../../../define.ts";
import { resetTwoFactor } from "../../../../../lib/auth/account_security.ts";
import { NotFoundError, statusText } from "../../../../../lib/errors.ts";
import { readJsonObject } from "../../../../../lib/json_body.ts";
import { securityOptions } from "../../../../../middleware/conn.ts";

export const handler = define.handlers({
  async DELETE(c) {
    const id = Number(c.req.param("id"));
    if (!Number.isSafeInteger(id) || id < 1) throw new NotFoundError("user_not_found");
    await resetTwoFactor(c.var.user, id, await readJsonObject(c.req.raw), securityOptions(c));
    return c.text(statusText(200), 200);
  },
});
