import { define } from "../../../define.ts";
import { gateContextOf } from "../../../lib/fs/gate.ts";
import { openRaw } from "../../../lib/fs/raw.ts";
import { rawRequestOf } from "../../../middleware/requests.ts";

export const handler = define.handlers({
  async GET(c) {
    const d = await openRaw(gateContextOf(c.var), "/" + c.req.param("path"), rawRequestOf(c));
    return new Response(d.body, { status: d.status, headers: d.headers });
  },
});
