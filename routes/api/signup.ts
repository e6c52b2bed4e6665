import { define } from "../../define.ts";
import { signup } from "../../lib/auth/mod.ts";
import { readJsonObject, stringField } from "../../lib/json_body.ts";
import { statusText } from "../../lib/errors.ts";

export const handler = define.handlers({
  async POST(c) {
    const body = await readJsonObject(c.req.raw);
    await signup(c.var.deps, c.var.settings, {
      username: stringField(body, "username"),
      password: stringField(body, "password"),
    });
    return c.text(statusText(200), 200);
  },
});
