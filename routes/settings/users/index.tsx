import { define, page } from "../../../define.ts";
import { SettingsPage } from "../../../islands/settings/SettingsPage.tsx";
import { SettingsUsers } from "../../../islands/SettingsUsers.tsx";

export const handler = define.handlers({
  GET() {
    return page({}, { title: "settings.users.title" });
  },
});

export default define.page<typeof handler>(() => (
  <SettingsPage section="users">
    <SettingsUsers />
  </SettingsPage>
));
