import { define, page } from "../../define.ts";
import { SettingsProfile } from "../../islands/SettingsProfile.tsx";
import { findProfilePage } from "../../lib/settings_pages.ts";

export const handler = define.handlers({
  async GET(c) {
    return page(await findProfilePage(c.var.ctx), { title: "settings.profile.title" });
  },
});

export default define.page<typeof handler>(({ data }) => (
  <SettingsProfile twoFactor={data.twoFactor} appPasswords={data.appPasswords} />
));
