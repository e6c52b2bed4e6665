import { define } from "../../../define.ts";
import { logout } from "../../../lib/auth/mod.ts";
import { statusText } from "../../../lib/errors.ts";

export const handler = define.handlers({
  async POST(c) {
    await logout(c.var.deps, c.var.sessionId);
    return c.text(statusText(200), 200);
  },
});
