import { define } from "../../../define.ts";
import { renewToken } from "../../../lib/auth/mod.ts";

export const handler = define.handlers({
  async POST(c) {
    const token = await renewToken(c.var.deps, {
      user: c.var.user,
      sessionId: c.var.sessionId,
      renew: false,
    });
    c.header("X-Renew-Token", "false");
    return c.text(token, 200);
  },
});
