import { define } from "../../../define.ts";
import { BadRequestError } from "../../../lib/errors.ts";
import { auditCsv, auditPage, filterFromQuery, MAX_PAGE } from "../../../lib/audit/query.ts";

export const handler = define.handlers({
  /** Newest first; `format=csv` streams every match, else one JSON page of `limit` with a `cursor` for the next. */
  async GET(c) {
    const filter = filterFromQuery((name) => c.req.query(name));
    const kv = c.var.deps.kv;
    const format = c.req.query("format") ?? "json";
    if (format === "csv") {
      return c.body(auditCsv(kv, filter), 200, {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": 'attachment; filename="audit.csv"',
        "Cache-Control": "no-store",
      });
    }
    if (format !== "json") throw new BadRequestError("invalid format", { code: "bad_format" });
    const limitText = c.req.query("limit") ?? "100";
    const limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || limit < 1 || limit > MAX_PAGE) {
      throw new BadRequestError("invalid limit", { code: "bad_limit" });
    }
    c.header("Cache-Control", "no-store");
    return c.json(await auditPage(kv, filter, { limit, cursor: c.req.query("cursor") || undefined }));
  },
});
