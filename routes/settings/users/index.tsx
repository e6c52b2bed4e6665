import { define, page } from "../../../define.ts";
import { SettingsUsers } from "../../../islands/SettingsUsers.tsx";
import { users } from "../../../lib/storage/mod.ts";
import { toWireUser } from "../../../lib/users.ts";

export const handler = define.handlers({
  async GET(c) {
    // What GET /api/users answers (the folder's guard lets admins only in).
    const list = (await users.listUsers(c.var.deps.kv)).map((u) => toWireUser(u, { viewerIsAdmin: true }));
    return page({ users: list }, { title: "settings.users.title" });
  },
});

export default define.page<typeof handler>(({ data }) => <SettingsUsers users={data.users} />);
