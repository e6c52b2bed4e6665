import { define, page } from "../../../define.ts";
import { SettingsUser } from "../../../islands/SettingsUser.tsx";
import { users } from "../../../lib/storage/mod.ts";
import { toWireSettings } from "../../../lib/settings.ts";
import { toWireUser } from "../../../lib/users.ts";

export const handler = define.handlers({
  async GET(c) {
    const id = c.req.param("id") ?? "new";
    const title = id === "new" ? "settings.users.newTitle" : "settings.users.title";
    if (id === "new") {
      const { defaults, createUserDir } = toWireSettings(c.var.settings);
      return page({ id, defaults: { defaults, createUserDir } }, { title });
    }
    // What GET /api/users/<id> answers; an unknown id leaves the form to ask the API and show its 404.
    const n = Number(id);
    const stored = Number.isSafeInteger(n) && n > 0 ? await users.findUser(c.var.deps.kv, n) : null;
    const user = stored ? toWireUser(stored, { viewerIsAdmin: true }) : undefined;
    return page({ id, user }, { title });
  },
});

export default define.page<typeof handler>(({ data }) => (
  <SettingsUser
    id={data.id}
    user={"user" in data ? data.user : undefined}
    defaults={"defaults" in data ? data.defaults : undefined}
  />
));
