import { define } from "../../../define.ts";
import { createAppPasswordFor } from "../../../lib/auth/account_security.ts";
import { deleteAllAppPasswords, listAppPasswords } from "../../../lib/auth/app_passwords.ts";
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
  // Revokes all of the requester's app passwords (and ends the sessions they opened).
  async DELETE(c) {
    return c.json({ revoked: await deleteAllAppPasswords(c.var.deps.kv, c.var.user.id) });
  },
});
