import { define } from "../../../define.ts";
import { vpathOf } from "../../../middleware/requests.ts";
import { openSubtitle } from "../../../lib/fs/preview.ts";

export const handler = define.handlers({
  async GET(c) {
    const d = await openSubtitle(c.var.ctx.gate, vpathOf(c), {
      inline: c.req.query("inline") === "true",
    });
    return new Response(d.body, { status: d.status, headers: d.headers });
  },
});
