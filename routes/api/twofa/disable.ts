import { define } from "../../../define.ts";
import { disableTwoFactor } from "../../../lib/auth/account_security.ts";
import { readJsonObject } from "../../../lib/json_body.ts";
import { statusText } from "../../../lib/errors.ts";
import { securityOptions } from "../../../middleware/conn.ts";

export const handler = define.handlers({
  async POST(c) {
    await disableTwoFactor(c.var.user, await readJsonObject(c.req.raw), securityOptions(c));
    return c.text(statusText(200), 200);
  },
});
