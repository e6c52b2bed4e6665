import { define } from "../../../define.ts";
import { getSiteInfo, publishRequestOf } from "../../../lib/publish/mod.ts";

export const handler = define.handlers({
  GET(c) {
    return c.json(getSiteInfo(publishRequestOf(c.var)));
  },
});
