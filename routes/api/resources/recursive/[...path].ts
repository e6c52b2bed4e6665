import { define } from "../../../../define.ts";
import { vpathOf } from "../../../../middleware/requests.ts";
import { listRecursive } from "../../../../lib/fs/recursive.ts";

export const handler = define.handlers({
  async GET(c) {
    const entries = await listRecursive(c.var.ctx.gate, vpathOf(c), {
      signal: c.req.raw.signal,
    });
    return c.json(entries);
  },
});
