import { define } from "../../../define.ts";
import { twoFactorStatus } from "../../../lib/auth/twofa.ts";

export const handler = define.handlers({
  async GET(c) {
    return c.json(await twoFactorStatus(c.var.deps.kv, c.var.settings, c.var.user));
  },
});
