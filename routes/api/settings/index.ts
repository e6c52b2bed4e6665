import { define } from "../../../define.ts";
import { readJsonObject } from "../../../lib/json_body.ts";
import { saveSettingsFromWire, toWireSettings } from "../../../lib/settings.ts";
import { statusText } from "../../../lib/errors.ts";
import { requireUser } from "../../../middleware/require_user.ts";

export const middleware = requireUser({ admin: true });

export const handler = define.handlers({
  GET(c) {
    return c.json(toWireSettings(c.var.settings));
  },
  async PUT(c) {
    const body = await readJsonObject(c.req.raw);
    await c.var.deps.store.saveSettings(saveSettingsFromWire(body, c.var.settings));
    return c.text(statusText(200), 200);
  },
});
