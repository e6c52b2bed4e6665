import { define } from "../../../define.ts";
import { readJsonObject, stringField } from "../../../lib/json_body.ts";
import { publishNow, publishRequestOf } from "../../../lib/publish/mod.ts";

export const handler = define.handlers({
  async POST(c) {
    const body = await readJsonObject(c.req.raw);
    const input = { path: stringField(body, "path"), date: stringField(body, "date") || undefined };
    return c.json(await publishNow(publishRequestOf(c.var), input));
  },
});
