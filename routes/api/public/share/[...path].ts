import { define } from "../../../../define.ts";
import { refuseDrop } from "../../../../lib/drop.ts";
import { chunkedBody } from "../../../../lib/fs/listing_json.ts";
import { openShare, publicResourceJson } from "../../../../lib/share_access.ts";
import { shareRequestOf } from "../../../../middleware/requests.ts";

export const handler = define.handlers({
  async GET(c) {
    const opened = await openShare(c.var.deps, c.var.settings, shareRequestOf(c));
    refuseDrop(opened, "list");
    const json = await publicResourceJson(opened, { listings: c.var.deps.listings });
    return c.body(chunkedBody(json), 200, { "Content-Type": "application/json" });
  },
});
