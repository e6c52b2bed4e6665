import { define } from "../../../../define.ts";
import { refuseDrop } from "../../../../lib/drop.ts";
import { openShare, publicDownload } from "../../../../lib/share_access.ts";
import { rawRequestOf, shareRequestOf } from "../../../../middleware/requests.ts";

export const handler = define.handlers({
  async GET(c) {
    const opened = await openShare(c.var.deps, c.var.settings, shareRequestOf(c));
    refuseDrop(opened, "download");
    const d = await publicDownload(opened, rawRequestOf(c));
    return new Response(d.body, { status: d.status, headers: d.headers });
  },
});
