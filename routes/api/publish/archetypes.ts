import { define } from "../../../define.ts";
import { listArchetypes, publishRequestOf } from "../../../lib/publish/mod.ts";

export const handler = define.handlers({
  async GET(c) {
    return c.json(await listArchetypes(publishRequestOf(c.var)));
  },
});
