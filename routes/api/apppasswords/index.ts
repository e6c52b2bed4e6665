import { define } from "../../../define.ts";
import { createAppPasswordFor } from "../../../lib/auth/account_security.ts";
import { listAppPasswords } from "../../../lib/auth/app_passwords.ts";
import { readJsonObject } from "../../../lib/json_body.ts";
import { securityOptions } from "../../../middleware/conn.ts";

export const handler = define.handlers({
  async GET(c) {
    return c.json(await listAppPasswords(c.var.deps.kv, c.var.user.id));
  },
  async POST(c) {
    const body = await readJsonObject(c.req.raw);
    return c.json(await createAppPasswordFor(c.var.user, body, securityOptions(c)), 201);
  },
});
