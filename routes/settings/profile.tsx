import { define, page } from "../../define.ts";
import { SettingsPage } from "../../islands/settings/SettingsPage.tsx";
import { SettingsProfile } from "../../islands/SettingsProfile.tsx";

export const handler = define.handlers({
  GET() {
    return page({}, { title: "settings.profile.title" });
  },
});

export default define.page<typeof handler>(() => (
  <SettingsPage section="profile">
    <SettingsProfile />
  </SettingsPage>
));
