import { define } from "../../../../define.ts";
import { cancelPostSchedule, publishRequestOf } from "../../../../lib/publish/mod.ts";

export const handler = define.handlers({
  async DELETE(c) {
    return c.json(await cancelPostSchedule(publishRequestOf(c.var), c.req.param("id") ?? ""));
  },
});
