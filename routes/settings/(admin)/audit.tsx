import { define, page } from "../../../define.ts";
import { SettingsAudit } from "../../../islands/SettingsAudit.tsx";

// The audit log is for admins only (the group's _middleware.ts sends others to /403).
export const handler = define.handlers({
  GET() {
    return page({}, { title: "audit.title" });
  },
});

export default define.page<typeof handler>(() => <SettingsAudit />);
