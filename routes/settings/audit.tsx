import { define, page } from "../../define.ts";
import { SettingsAudit } from "../../islands/SettingsAudit.tsx";
import { requirePageUser } from "../../middleware/require_page_user.ts";

/** The audit log is for admins only (others go to /403). */
export const middleware = requirePageUser({ admin: true });

export const handler = define.handlers({
  GET() {
    return page({}, { title: "audit.title" });
  },
});

export default define.page<typeof handler>(() => <SettingsAudit />);
