import { define } from "../../../../define.ts";
import { readJsonObject } from "../../../../lib/json_body.ts";
import { createUserByAdmin, toWireUser } from "../../../../lib/users.ts";
import { users } from "../../../../lib/storage/mod.ts";
import { statusText } from "../../../../lib/errors.ts";
import { reauthThrottle } from "../../../../middleware/conn.ts";

export const handler = define.handlers({
  async GET(c) {
    const list = await users.listUsers(c.var.deps.kv);
    return c.json(list.map((u) => toWireUser(u, { viewerIsAdmin: true })));
  },
  async POST(c) {
    const body = await readJsonObject(c.req.raw);
    if (body.what !== "user") return c.text(statusText(400, "invalid data type"), 400);
    const { kv, config } = c.var.deps;
    const user = await createUserByAdmin({
      kv,
      requester: c.var.user,
      body,
      authMethod: config.authMethod,
      reauthThrottle: reauthThrottle(c),
      root: config.root,
      settings: c.var.settings,
      minPasswordLength: c.var.settings.minimumPasswordLength,
    });
    c.set("auditNote", { target: `user:${user.id}`, detail: user.username });
    c.header("Location", `/settings/users/${user.id}`);
    return c.text(statusText(201), 201);
  },
});
