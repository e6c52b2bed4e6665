import { define, page } from "../../../define.ts";
import { SettingsGlobal } from "../../../islands/SettingsGlobal.tsx";
import { findImportRecord } from "../../../lib/import/mod.ts";

export const handler = define.handlers({
  async GET(c) {
    // The last import from filebrowser, shown read-only with its report.
    const imported = await findImportRecord(c.var.deps.kv);
    return page({ imported }, { title: "settings.global.title" });
  },
});

export default define.page<typeof handler>(({ data }) => <SettingsGlobal imported={data.imported} />);
