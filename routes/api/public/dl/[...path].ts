import { define } from "../../../../define.ts";
import { openShare, publicDownload } from "../../../../lib/shares.ts";
import { rawRequestOf, shareRequestOf } from "../../../../middleware/requests.ts";

export const handler = define.handlers({
  async GET(c) {
    const opened = await openShare(c.var.deps, c.var.settings, shareRequestOf(c));
    const d = await publicDownload(opened, rawRequestOf(c));
    return new Response(d.body, { status: d.status, headers: d.headers });
  },
});
