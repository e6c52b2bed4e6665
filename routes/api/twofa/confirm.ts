import { define } from "../../../define.ts";
import { confirmTwoFactor } from "../../../lib/auth/account_security.ts";
import { readJsonObject } from "../../../lib/json_body.ts";
import { securityOptions } from "../../../middleware/conn.ts";

export const handler = define.handlers({
  async POST(c) {
    const body = await readJsonObject(c.req.raw);
    return c.json({ recoveryCodes: await confirmTwoFactor(c.var.user, body, securityOptions(c)) });
  },
});
