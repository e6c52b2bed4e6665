import { define } from "../../../define.ts";
import { renewToken } from "../../../lib/auth/mod.ts";

export const handler = define.handlers({
  async POST(c) {
    // 403 for a session opened with an app password: it is not extended.
    const token = await renewToken(c.var.deps, { user: c.var.user, sessionId: c.var.sessionId });
    c.header("X-Renew-Token", "false");
    return c.text(token, 200);
  },
});
