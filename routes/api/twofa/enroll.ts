import { define } from "../../../define.ts";
import { enrollTwoFactor } from "../../../lib/auth/account_security.ts";
import { readJsonObject } from "../../../lib/json_body.ts";
import { securityOptions } from "../../../middleware/conn.ts";

export const handler = define.handlers({
  async POST(c) {
    const body = await readJsonObject(c.req.raw);
    const issuer = c.var.settings.branding.name || "File Browser";
    return c.json(await enrollTwoFactor(c.var.user, body, { ...securityOptions(c), issuer }));
  },
});
