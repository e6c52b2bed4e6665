import { define, page } from "../../../define.ts";
import { SettingsGlobal } from "../../../islands/SettingsGlobal.tsx";
import { findImportRecord } from "../../../lib/import/mod.ts";
import { toWireSettings } from "../../../lib/settings_wire.ts";
import { execStatusOf } from "../../../lib/runner/mod.ts";

export const handler = define.handlers({
  async GET(c) {
    // The last import from filebrowser, shown read-only with its report.
    const imported = await findImportRecord(c.var.deps.kv);
    // What GET /api/settings answers, how commands run here included.
    const settings = { ...toWireSettings(c.var.settings), exec: execStatusOf(c.var.deps.exec) };
    return page({ imported, settings }, { title: "settings.global.title" });
  },
});

export default define.page<typeof handler>(({ data }) => (
  <SettingsGlobal imported={data.imported} settings={data.settings} />
));
