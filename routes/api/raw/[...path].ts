import { define } from "../../../define.ts";
import { openRaw } from "../../../lib/fs/raw.ts";
import { rawRequestOf, vpathOf } from "../../../middleware/requests.ts";

export const handler = define.handlers({
  async GET(c) {
    const d = await openRaw(c.var.ctx.gate, vpathOf(c), rawRequestOf(c));
    return new Response(d.body, { status: d.status, headers: d.headers });
  },
});
