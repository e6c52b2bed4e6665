import { define } from "../../../define.ts";
import { gateContextOf } from "../../../lib/fs/gate.ts";
import { searchStream } from "../../../lib/search/mod.ts";

export const handler = define.handlers({
  GET(c) {
    const body = searchStream(gateContextOf(c.var), "/" + c.req.param("path"), c.req.query("query") ?? "", {
      signal: c.req.raw.signal,
    });
    return c.body(body, 200, { "Content-Type": "text/plain; charset=utf-8" });
  },
});
