import { define } from "../../../define.ts";
import { deleteTrashItem, restoreTrashItem } from "../../../lib/trash/mod.ts";

export const handler = define.handlers({
  /** Restore: `override=true` replaces what stands at the origin, `rename=true` picks a free name. */
  async POST(c) {
    const path = await restoreTrashItem(c.var.deps, c.var.ctx, c.req.param("id") ?? "", {
      override: c.req.query("override") === "true",
      rename: c.req.query("rename") === "true",
    });
    c.set("auditNote", { path });
    return c.json({ path });
  },
  async DELETE(c) {
    await deleteTrashItem(c.var.deps, c.var.ctx, c.req.param("id") ?? "");
    return c.body(null, 204);
  },
});
