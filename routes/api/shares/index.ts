import { define } from "../../../define.ts";
import { listSharesFor } from "../../../lib/shares.ts";

export const handler = define.handlers({
  async GET(c) {
    return c.json(await listSharesFor(c.var.ctx));
  },
});
