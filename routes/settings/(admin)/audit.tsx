import { define, page } from "../../../define.ts";
import { SettingsAudit } from "../../../islands/SettingsAudit.tsx";
import { findAuditFirstPage } from "../../../lib/settings_pages.ts";

// The audit log is for admins only (the group's _middleware.ts sends others to /403).
export const handler = define.handlers({
  async GET(c) {
    return page({ first: await findAuditFirstPage(c.var.ctx) }, { title: "audit.title" });
  },
});

export default define.page<typeof handler>(({ data }) => <SettingsAudit first={data.first} />);
