import { define } from "../../../../define.ts";
import { refuseDrop } from "../../../../lib/drop.ts";
import { openShare, publicResource } from "../../../../lib/shares.ts";
import { shareRequestOf } from "../../../../middleware/requests.ts";

export const handler = define.handlers({
  async GET(c) {
    const opened = await openShare(c.var.deps, c.var.settings, shareRequestOf(c));
    refuseDrop(opened, "list");
    return c.json(await publicResource(opened));
  },
});
