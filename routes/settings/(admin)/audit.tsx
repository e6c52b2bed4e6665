import { define, page } from "../../../define.ts";
import { SettingsPage } from "../../../islands/settings/SettingsPage.tsx";
import { SettingsAudit } from "../../../islands/SettingsAudit.tsx";

/** The audit log is for admins only (others go to /403). */

export const handler = define.handlers({
  GET() {
    return page({}, { title: "audit.title" });
  },
});

export default define.page<typeof handler>(() => (
  <SettingsPage section="audit">
    <SettingsAudit />
  </SettingsPage>
));
