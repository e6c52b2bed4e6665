import { define, page } from "../../define.ts";
import { SettingsTrash } from "../../islands/SettingsTrash.tsx";
import { listTrashPage } from "../../lib/settings_pages.ts";

export const handler = define.handlers({
  async GET(c) {
    return page({ items: await listTrashPage(c.var.ctx) }, { title: "trash.title" });
  },
});

export default define.page<typeof handler>(({ data }) => <SettingsTrash items={data.items} />);
