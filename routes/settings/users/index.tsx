import { define, page } from "../../../define.ts";
import { SettingsUsers } from "../../../islands/SettingsUsers.tsx";

export const handler = define.handlers({
  GET() {
    return page({}, { title: "settings.users.title" });
  },
});

export default define.page<typeof handler>(() => <SettingsUsers />);
