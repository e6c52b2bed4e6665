import { define, page } from "../../define.ts";
import { SettingsTrash } from "../../islands/SettingsTrash.tsx";

export const handler = define.handlers({
  GET() {
    return page({}, { title: "trash.title" });
  },
});

export default define.page<typeof handler>(() => <SettingsTrash />);
