import { define } from "../../../define.ts";
import { vpathOf } from "../../../middleware/requests.ts";
import { getUsage } from "../../../lib/fs/usage.ts";

export const handler = define.handlers({
  async GET(c) {
    return c.json(
      await getUsage(c.var.ctx.gate, vpathOf(c), {
        quota: { deps: c.var.deps, user: c.var.user },
      }),
    );
  },
});
