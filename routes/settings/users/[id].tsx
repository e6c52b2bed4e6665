import { define, page } from "../../../define.ts";
import { SettingsPage } from "../../../islands/settings/SettingsPage.tsx";
import { SettingsUser } from "../../../islands/SettingsUser.tsx";

export const handler = define.handlers({
  GET(c) {
    const id = c.req.param("id") ?? "new";
    return page({ id }, { title: id === "new" ? "settings.users.newTitle" : "settings.users.title" });
  },
});

export default define.page<typeof handler>(({ data }) => (
  <SettingsPage section="users">
    <SettingsUser id={data.id} />
  </SettingsPage>
));
