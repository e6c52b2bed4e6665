import { define } from "../../../define.ts";
import { vpathOf } from "../../../middleware/requests.ts";

export const handler = define.handlers({
  async POST(c) {
    // Loaded on the first extraction: the zip and tar readers are code an idle server need not hold.
    const { extractStream, parseConflict, planExtract } = await import("../../../lib/extract/mod.ts");
    const signal = c.req.raw.signal;
    const plan = await planExtract(c.var.ctx, vpathOf(c), {
      destination: c.req.query("destination") || undefined,
      conflict: parseConflict(c.req.query("conflict")),
      limits: c.var.deps.config.extractLimits,
      signal,
    });
    return c.body(extractStream(plan, signal), 200, {
      "Content-Type": "application/x-ndjson; charset=utf-8",
    });
  },
});
