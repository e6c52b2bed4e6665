import { define } from "../../../define.ts";
import { readJsonObject } from "../../../lib/json_body.ts";
import { saveSettingsFromWire, toWireSettings } from "../../../lib/settings_wire.ts";
import { validateSiteSettings } from "../../../lib/publish/mod.ts";
import { statusText } from "../../../lib/errors.ts";
import { execStatusOf } from "../../../lib/runner/mod.ts";

export const handler = define.handlers({
  GET(c) {
    // Our read-only addition: how commands run here (the admin sees whether they are confined).
    return c.json({ ...toWireSettings(c.var.settings), exec: execStatusOf(c.var.deps.exec) });
  },
  async PUT(c) {
    const body = await readJsonObject(c.req.raw);
    const next = saveSettingsFromWire(body, c.var.settings);
    await validateSiteSettings(next, c.var.settings, c.var.ctx.gate);
    await c.var.deps.store.saveSettings(next);
    return c.text(statusText(200), 200);
  },
});
