import { define } from "../../../../../define.ts";
import { resetTwoFactor } from "../../../../../lib/auth/account_security.ts";
import { statusText } from "../../../../../lib/errors.ts";
import { readJsonObject } from "../../../../../lib/json_body.ts";
import { securityOptions } from "../../../../../middleware/conn.ts";
import { userIdParam } from "../../../../../middleware/requests.ts";

export const handler = define.handlers({
  async DELETE(c) {
    const id = userIdParam(c);
    await resetTwoFactor(c.var.user, id, await readJsonObject(c.req.raw), securityOptions(c));
    return c.text(statusText(200), 200);
  },
});
