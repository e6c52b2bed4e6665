import { define } from "../../../../define.ts";
import { readJsonObject, stringField } from "../../../../lib/json_body.ts";
import { listPostSchedules, publishRequestOf, schedulePost } from "../../../../lib/publish/mod.ts";

export const handler = define.handlers({
  async GET(c) {
    return c.json(await listPostSchedules(publishRequestOf(c.var)));
  },
  async POST(c) {
    const body = await readJsonObject(c.req.raw);
    const input = { path: stringField(body, "path"), date: stringField(body, "date") };
    return c.json(await schedulePost(publishRequestOf(c.var), input), 201);
  },
});
