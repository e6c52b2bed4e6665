import { define } from "../../../define.ts";
import { confirmTwoFactor } from "../../../lib/auth/account_security.ts";
import { readJsonObject } from "../../../lib/json_body.ts";
import { securityOptions } from "../../../middleware/conn.ts";

export const handler = define.handlers({
  async POST(c) {
    const body = await readJsonObject(c.req.raw);
    const options = { ...securityOptions(c), sessionId: c.var.sessionId };
    return c.json(await confirmTwoFactor(c.var.user, body, options));
  },
});
