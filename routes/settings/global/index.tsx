import { define, page } from "../../../define.ts";
import { SettingsPage } from "../../../islands/settings/SettingsPage.tsx";
import { SettingsGlobal } from "../../../islands/SettingsGlobal.tsx";

export const handler = define.handlers({
  GET() {
    return page({}, { title: "settings.global.title" });
  },
});

export default define.page<typeof handler>(() => (
  <SettingsPage section="global">
    <SettingsGlobal />
  </SettingsPage>
));
