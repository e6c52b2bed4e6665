import { define } from "../../../define.ts";
import { getPostInfo, publishRequestOf } from "../../../lib/publish/mod.ts";

export const handler = define.handlers({
  async GET(c) {
    return c.json(await getPostInfo(publishRequestOf(c.var), c.req.query("path") ?? ""));
  },
});
