import { define } from "../../../define.ts";
import { gateContextOf } from "../../../lib/fs/gate.ts";
import { openSubtitle } from "../../../lib/fs/preview.ts";

export const handler = define.handlers({
  async GET(c) {
    const d = await openSubtitle(gateContextOf(c.var), "/" + c.req.param("path"), {
      inline: c.req.query("inline") === "true",
    });
    return new Response(d.body, { status: d.status, headers: d.headers });
  },
});
