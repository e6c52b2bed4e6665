import { define, page } from "../../define.ts";
import { SettingsPage } from "../../islands/settings/SettingsPage.tsx";
import { SettingsTrash } from "../../islands/SettingsTrash.tsx";

export const handler = define.handlers({
  GET() {
    return page({}, { title: "trash.title" });
  },
});

export default define.page<typeof handler>(() => (
  <SettingsPage section="trash">
    <SettingsTrash />
  </SettingsPage>
));
