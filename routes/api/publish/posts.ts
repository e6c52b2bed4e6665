import { define } from "../../../define.ts";
import { readJsonObject, stringField } from "../../../lib/json_body.ts";
import { createPost, publishRequestOf } from "../../../lib/publish/mod.ts";

export const handler = define.handlers({
  async POST(c) {
    const body = await readJsonObject(c.req.raw);
    const post = await createPost(publishRequestOf(c.var), {
      archetype: stringField(body, "archetype"),
      title: stringField(body, "title"),
      section: stringField(body, "section"),
      date: stringField(body, "date") || undefined,
    });
    return c.json(post, 201);
  },
});
