import { define, page } from "../../../define.ts";
import { SettingsUser } from "../../../islands/SettingsUser.tsx";
import type { NewUserDefaults } from "../../../islands/SettingsUser.tsx";
import { users } from "../../../lib/storage/mod.ts";
import { toWireSettings } from "../../../lib/settings_wire.ts";
import { toWireUser } from "../../../lib/users.ts";
import type { AppPasswordInfo, User } from "../../../lib/types.ts";
import { listUserAppPasswords } from "../../../lib/auth/account_security.ts";

export const handler = define.handlers({
  async GET(c) {
    const id = c.req.param("id") ?? "new";
    let user: User | undefined;
    let defaults: NewUserDefaults | undefined;
    let appPasswords: AppPasswordInfo[] | null = null;
    if (id === "new") {
      const { createUserDir } = c.var.settings;
      defaults = { defaults: toWireSettings(c.var.settings).defaults, createUserDir };
    } else {
      // What GET /api/users/<id> answers; an unknown id leaves the form to ask the API and show its 404.
      const n = Number(id);
      const stored = Number.isSafeInteger(n) && n > 0 ? await users.findUser(c.var.deps.kv, n) : null;
      user = stored ? toWireUser(stored, { viewerIsAdmin: true }) : undefined;
      // What GET /api/users/<id>/apppasswords answers, for the card the editor shows with json or hook auth.
      const method = c.var.deps.config.authMethod;
      if (stored && (method === "json" || method === "hook")) {
        appPasswords = await listUserAppPasswords(c.var.deps.kv, c.var.user, stored.id);
      }
    }
    const title = id === "new" ? "settings.users.newTitle" : "settings.users.title";
    return page({ id, user, defaults, appPasswords }, { title });
  },
});

export default define.page<typeof handler>(({ data }) => (
  <SettingsUser id={data.id} user={data.user} defaults={data.defaults} appPasswords={data.appPasswords} />
));
