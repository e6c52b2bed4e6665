/** Test fixture of lib/publish: a Hugo-like site on a temp root, KV, settings and users. */
import { noopHooks } from "../hooks.ts";
import { defaultSettings, normalizeSettings } from "../settings.ts";
import { Store, users } from "../storage/mod.ts";
import type { Permissions, Settings, SiteSettings, StoredUser } from "../types.ts";
import { PERMISSION_NAMES } from "../types.ts";
import { userFromDefaults } from "../users.ts";
import type { BuildRunner, PublishDeps, PublishRequest } from "./mod.ts";

/** A post with YAML front matter and a body that must survive byte for byte. */
export const HELLO_POST =
  "---\ntitle: Hello\ndate: 2024-01-01T00:00:00Z\ndraft: true\ntags: [a]\n---\n\nHi {{ x }}\n";

/** The files of the test site, by path from the files root. */
export const SITE_FILES: Record<string, string> = {
  "/site/hugo.toml": 'baseURL = "https://example.org/"\ntitle = "Test Site"\n',
  "/site/content/posts/hello.md": HELLO_POST,
  "/site/content/plain.md": "no front matter here\n",
  "/site/archetypes/posts.md": "+++\ntitle = '{{ .Name }}'\nsection = '{{ .Section }}'\ndraft = true\n+++\n" +
    "Welcome to {{ .Site.Title }}\n",
  "/site/archetypes/default.md": "---\ntitle: x\n---\n",
  "/site/archetypes/.hidden.md": "---\n---\n",
  "/outside.md": HELLO_POST,
};

/** A running fixture. */
export interface PublishFixture {
  dir: string;
  root: string;
  kv: Deno.Kv;
  deps: PublishDeps & {
    config: { root: string; followExternalSymlinks: boolean; enableExec: boolean; publishNetwork: boolean };
  };
  /** Build runs seen by the fake runner. */
  builds: { argv: string[]; cwd: string; user: string }[];
  settings: Settings;
  users: Record<string, StoredUser>;
  /** A request of a user with the current settings. */
  req(username: string): PublishRequest;
  setSite(site: Partial<SiteSettings>): Promise<void>;
  close(): Promise<void>;
}

/** Options of publishFixture. */
export interface PublishFixtureOptions {
  /** KV path (":memory:" by default). */
  database?: string;
  exec?: boolean;
  /** Exit code of the fake build. */
  buildCode?: number;
}

/** Creates the fixture with users "admin" (all), "writer" (create+publish), "reader" (none), "siteonly" (scope /site). */
export async function publishFixture(options: PublishFixtureOptions = {}): Promise<PublishFixture> {
  const dir = await Deno.makeTempDir({ prefix: "fbpublish-" });
  const root = `${dir}/root`;
  for (const [path, text] of Object.entries(SITE_FILES)) {
    await Deno.mkdir(`${root}${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${root}${path}`, text);
  }
  const database = options.database ?? ":memory:";
  const kv = await Deno.openKv(database === ":memory:" ? database : `${dir}/${database}`);
  const store = new Store(kv);
  let settings = normalizeSettings({
    ...defaultSettings(),
    site: { enabled: true, path: "/site", build: ["hugo", "--minify"] },
  });
  await store.saveSettings(settings);
  const builds: PublishFixture["builds"] = [];
  const buildRunner: BuildRunner = (argv, o) => {
    builds.push({ argv, cwd: o.cwd, user: o.user.username });
    return Promise.resolve({ code: options.buildCode ?? 0, output: `built ${argv.join(" ")}\n` });
  };
  const deps = {
    config: { root, followExternalSymlinks: false, enableExec: options.exec ?? true, publishNetwork: false },
    kv,
    store,
    hooks: noopHooks,
    now: Date.now,
    foldCase: () => Promise.resolve(false),
    buildRunner,
  };
  const specs: [string, string, Partial<Permissions> | "all"][] = [
    ["admin", "/", "all"],
    ["writer", "/", { create: true, publish: true, modify: true }],
    ["reader", "/", {}],
    ["siteonly", "/site", { create: true, publish: true }],
  ];
  const made: Record<string, StoredUser> = {};
  for (const [username, scope, perm] of specs) {
    const data = userFromDefaults(settings, username, "x");
    data.perm = Object.fromEntries(PERMISSION_NAMES.map((k) => [k, perm === "all" || !!perm[k]])) as never;
    data.scope = scope;
    made[username] = await users.createUser(kv, data);
  }
  return {
    dir,
    root,
    kv,
    deps,
    builds,
    get settings() {
      return settings;
    },
    users: made,
    req: (username) => ({ deps, user: made[username], settings }),
    async setSite(site) {
      settings = normalizeSettings({ ...settings, site: { ...settings.site, ...site } });
      await store.saveSettings(settings);
    },
    async close() {
      kv.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
