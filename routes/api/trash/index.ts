import { define } from "../../../define.ts";
import { emptyTrash, listTrash } from "../../../lib/trash/mod.ts";

export const handler = define.handlers({
  async GET(c) {
    return c.json(await listTrash(c.var.deps, c.var.ctx));
  },
  async DELETE(c) {
    await emptyTrash(c.var.deps, c.var.user);
    return c.body(null, 204);
  },
});
