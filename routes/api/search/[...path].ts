import { define } from "../../../define.ts";
import { vpathOf } from "../../../middleware/requests.ts";
import { searchStream } from "../../../lib/search/mod.ts";

export const handler = define.handlers({
  async GET(c) {
    const index = c.var.deps.searchIndex;
    const body = await searchStream(c.var.ctx.gate, vpathOf(c), c.req.query("query") ?? "", {
      signal: c.req.raw.signal,
      index,
    });
    const headers: Record<string, string> = { "Content-Type": "text/plain; charset=utf-8" };
    // Tells clients (and tests) whether the answer came from the index or from a walk while it builds.
    if (index) headers["X-Search-Index"] = index.ready ? "ready" : "building";
    return c.body(body, 200, headers);
  },
});
