import { define } from "../../../define.ts";
import { listSharesFor } from "../../../lib/shares.ts";
import { requireUser } from "../../../middleware/require_user.ts";

export const middleware = requireUser();

export const handler = define.handlers({
  async GET(c) {
    return c.json(await listSharesFor(c.var.ctx));
  },
});
