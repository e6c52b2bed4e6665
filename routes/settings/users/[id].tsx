import { define, page } from "../../../define.ts";
import { SettingsUser } from "../../../islands/SettingsUser.tsx";

export const handler = define.handlers({
  GET(c) {
    const id = c.req.param("id") ?? "new";
    return page({ id }, { title: id === "new" ? "settings.users.newTitle" : "settings.users.title" });
  },
});

export default define.page<typeof handler>(({ data }) => <SettingsUser id={data.id} />);
