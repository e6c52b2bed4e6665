import { define } from "../../../define.ts";
import { gateContextOf } from "../../../lib/fs/gate.ts";
import { getUsage } from "../../../lib/fs/usage.ts";

export const handler = define.handlers({
  async GET(c) {
    return c.json(
      await getUsage(gateContextOf(c.var), "/" + c.req.param("path"), {
        quota: { deps: c.var.deps, user: c.var.user },
      }),
    );
  },
});
