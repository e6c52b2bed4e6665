import { define, page } from "../../define.ts";
import { SettingsProfile } from "../../islands/SettingsProfile.tsx";

export const handler = define.handlers({
  GET() {
    return page({}, { title: "settings.profile.title" });
  },
});

export default define.page<typeof handler>(() => <SettingsProfile />);
