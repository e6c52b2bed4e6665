import { define } from "../../../../../../define.ts";
import { revokeUserAppPasswords } from "../../../../../../lib/auth/account_security.ts";
import { statusText } from "../../../../../../lib/errors.ts";
import { userIdParam } from "../../../../../../middleware/requests.ts";

export const handler = define.handlers({
  async DELETE(c) {
    const target = { userId: userIdParam(c), id: c.req.param("appId") ?? "" };
    await revokeUserAppPasswords(c.var.deps.kv, c.var.user, target);
    return c.text(statusText(200), 200);
  },
});
