import { define } from "../../../../define.ts";
import { gateContextOf } from "../../../../lib/fs/gate.ts";
import { listRecursive } from "../../../../lib/fs/recursive.ts";

export const handler = define.handlers({
  async GET(c) {
    const entries = await listRecursive(gateContextOf(c.var), "/" + c.req.param("path"), {
      signal: c.req.raw.signal,
    });
    return c.json(entries);
  },
});
