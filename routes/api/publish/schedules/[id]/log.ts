import { define } from "../../../../../define.ts";
import { getPostBuildLog, publishRequestOf } from "../../../../../lib/publish/mod.ts";

export const handler = define.handlers({
  async GET(c) {
    return c.json(await getPostBuildLog(publishRequestOf(c.var), c.req.param("id") ?? ""));
  },
});
