import { define } from "../../../../../../define.ts";
import { listUserAppPasswords, revokeUserAppPasswords } from "../../../../../../lib/auth/account_security.ts";
import { userIdParam } from "../../../../../../middleware/requests.ts";

export const handler = define.handlers({
  async GET(c) {
    return c.json(await listUserAppPasswords(c.var.deps.kv, c.var.user, userIdParam(c)));
  },
  async DELETE(c) {
    const target = { userId: userIdParam(c), id: null };
    return c.json({ revoked: await revokeUserAppPasswords(c.var.deps.kv, c.var.user, target) });
  },
});
