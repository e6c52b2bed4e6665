import { define } from "../../../define.ts";
import { deleteAppPassword } from "../../../lib/auth/app_passwords.ts";
import { statusText } from "../../../lib/errors.ts";

export const handler = define.handlers({
  async DELETE(c) {
    await deleteAppPassword(c.var.deps.kv, c.var.user.id, c.req.param("id") ?? "");
    return c.text(statusText(200), 200);
  },
});
