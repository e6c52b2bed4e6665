/**
 * Keeps the documentation and the code in step, mechanically: every route of `routes/api/` appears in
 * docs/api.md, every flag of the server's `--help` in docs/configuration.md, and every permission and settings
 * key in docs/api.md. Each check is also fed a violation (a fake route, flag or key missing from a fake doc), so
 * a check that stops matching fails.
 */
import assert from "node:assert/strict";
import { helpText } from "../config/options.ts";
import { PERMISSION_NAMES } from "../lib/types.ts";
import type { Permissions, Settings } from "../lib/types.ts";

const ROOT = new URL("../", import.meta.url);

function readDoc(name: string): Promise<string> {
  return Deno.readTextFile(new URL(`docs/${name}`, ROOT));
}

/** A segment of a route's URL: a fixed name, one parameter (`[id]`) or the rest of the path (`[...path]`). */
type Segment = { kind: "static"; name: string } | { kind: "param" } | { kind: "rest" };

/**
 * The URL segments of a route file (a path below `routes/`): `(group)` folders and `index` add nothing,
 * `[param]` is one segment, `[...rest]` any number of them.
 */
function routeSegments(file: string): Segment[] {
  const parts = file.replace(/\.tsx?$/, "").split("/");
  if (parts.at(-1) === "index") parts.pop();
  return parts.filter((p) => !/^\(.*\)$/.test(p)).map((p): Segment => {
    if (/^\[\.\.\.[^\]]+\]$/.test(p)) return { kind: "rest" };
    if (/^\[[^\]]+\]$/.test(p)) return { kind: "param" };
    return { kind: "static", name: p };
  });
}

/** The route as the docs would write it, with `{param}` and `<rest>` placeholders (for messages). */
function routeUrl(segments: Segment[]): string {
  return segments.map((s) => s.kind === "static" ? `/${s.name}` : s.kind === "param" ? "/{param}" : "/<rest>")
    .join("");
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A tolerant pattern for a route in prose: fixed segments as they are, a parameter as any placeholder or example
 * (`{id}`, `<id>`, `thumb`), the rest of the path as anything or nothing (`/<path>`, `/`, `[/<sub-path>]`). It
 * must end there: `/api/share` is not found inside `/api/shares`, nor `/api/users` inside `/api/users/{id}`.
 */
function routePattern(segments: Segment[]): RegExp {
  let source = "";
  for (const s of segments) {
    if (s.kind === "static") source += `/${escapeRegExp(s.name)}`;
    else if (s.kind === "param") source += "/[^\\s/`|)]+";
    else source += "(?:\\[?/[^\\s`|)]*)?";
  }
  const end = segments.at(-1)?.kind === "rest" ? "(?![\\w-])" : "(?![\\w/-])";
  return new RegExp(source + end);
}

/** Route files below `dir` (relative to `routes/`), without `_` files and tests. */
async function routeFiles(dir: URL, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.name.startsWith("_") || e.name.endsWith("_test.ts")) continue;
    const rel = `${prefix}/${e.name}`;
    if (e.isDirectory) out.push(...await routeFiles(new URL(`${e.name}/`, dir), rel));
    else if (/\.tsx?$/.test(e.name)) out.push(rel);
  }
  return out.sort();
}

/** The routes (files below `routes/`) the doc does not mention, as URLs. */
function undocumentedRoutes(files: readonly string[], doc: string): string[] {
  return files.map(routeSegments).filter((segs) => !routePattern(segs).test(doc)).map(routeUrl);
}

/** The long flags of a help text (`--port`, `--help`). */
function flagsOf(help: string): string[] {
  return [...new Set([...help.matchAll(/--([a-z][a-z0-9-]*)/g)].map((m) => m[1]))];
}

/** The flags the doc does not mention as `--name` (not as the start of a longer flag). */
function undocumentedFlags(flags: readonly string[], doc: string): string[] {
  return flags.filter((f) => !new RegExp(`--${escapeRegExp(f)}(?![\\w-])`).test(doc));
}

/** The keys the doc does not mention as `` `key` `` or `"key"`. */
function undocumentedKeys(names: readonly string[], doc: string): string[] {
  return names.filter((k) => !new RegExp(`[\`"]${escapeRegExp(k)}[\`"]`).test(doc));
}

// Every key of the wire types, checked by the compiler: a key added to Permissions or Settings without being
// listed here fails the type check of this file (`satisfies` refuses missing and unknown keys alike).
const PERMISSION_KEYS = Object.keys(
  {
    admin: true,
    execute: true,
    create: true,
    rename: true,
    modify: true,
    delete: true,
    share: true,
    download: true,
    publish: true,
  } satisfies Record<keyof Permissions, true>,
);
const SETTINGS_KEYS = Object.keys(
  {
    signup: true,
    hideLoginButton: true,
    createUserDir: true,
    minimumPasswordLength: true,
    userHomeBasePath: true,
    defaults: true,
    authMethod: true,
    rules: true,
    branding: true,
    tus: true,
    shell: true,
    commands: true,
    enableGuest: true,
    customCss: true,
    exec: true,
    site: true,
    appPasswordsForLogin: true,
    twoFactorRequired: true,
  } satisfies Record<keyof Settings, true>,
);

Deno.test("docs: every route of routes/api/ appears in docs/api.md", async () => {
  const files = await routeFiles(new URL("routes/api/", ROOT), "api");
  assert.ok(files.length >= 40, `only ${files.length} route files found`);
  assert.deepEqual(undocumentedRoutes(files, await readDoc("api.md")), []);
});

Deno.test("docs: every flag of --help appears in docs/configuration.md", async () => {
  const flags = flagsOf(helpText());
  assert.ok(flags.includes("port") && flags.includes("help"), flags.join(" "));
  assert.deepEqual(undocumentedFlags(flags, await readDoc("configuration.md")), []);
});

Deno.test("docs: every permission and every settings key appears in docs/api.md", async () => {
  // The runtime list of permissions is the typed one.
  assert.deepEqual([...PERMISSION_NAMES].sort(), [...PERMISSION_KEYS].sort());
  const doc = await readDoc("api.md");
  assert.deepEqual(undocumentedKeys(PERMISSION_KEYS, doc), []);
  assert.deepEqual(undocumentedKeys(SETTINGS_KEYS, doc), []);
});

Deno.test("docs checks: route files map to URLs (groups, index, parameters, the rest of a path)", () => {
  const table: [string, string][] = [
    ["api/login.ts", "/api/login"],
    ["api/(enrolling)/logout.ts", "/api/logout"],
    ["api/users/(admin)/index.ts", "/api/users"],
    ["api/users/(self)/[id].ts", "/api/users/{param}"],
    ["api/users/(admin)/[id]/twofa.ts", "/api/users/{param}/twofa"],
    ["api/preview/[size]/[...path].ts", "/api/preview/{param}/<rest>"],
  ];
  for (const [file, url] of table) assert.equal(routeUrl(routeSegments(file)), url, file);
});

Deno.test("docs checks: a route missing from the doc is reported, written forms of it are not", () => {
  const files = ["api/fake/[id]/thing.ts", "api/widget/[...path].ts", "api/gadget/index.ts"];
  const doc = "`GET /api/fake/{id}/thingy`, `/api/widgets/x`, `GET /api/gadget/{id}`";
  assert.deepEqual(undocumentedRoutes(files, doc), [
    "/api/fake/{param}/thing",
    "/api/widget/<rest>",
    "/api/gadget",
  ]);
  const forms = [
    "`GET /api/fake/{id}/thing`, `/api/widget/<path>`, `GET /api/gadget?x=1`",
    "| `DELETE /api/fake/<id>/thing` | `/api/widget[/<sub-path>]` | `POST /api/gadget` |",
    '"$FB/api/fake/7/thing" and "$FB/api/widget/" and `GET /api/gadget`',
  ];
  for (const doc of forms) assert.deepEqual(undocumentedRoutes(files, doc), [], doc);
});

Deno.test("docs checks: a flag missing from the doc is reported, also when a longer one is there", () => {
  const help =
    "  -f, --frobnicate   FB_FROB   frobs\n      --frob   FB_F   frob\n  -h, --help   show this help";
  assert.deepEqual(flagsOf(help), ["frobnicate", "frob", "help"]);
  assert.deepEqual(undocumentedFlags(flagsOf(help), "| `--frobnicate` | … |"), ["frob", "help"]);
  assert.deepEqual(undocumentedFlags(flagsOf(help), "`--frob` and `-h, --help`"), ["frobnicate"]);
  assert.deepEqual(undocumentedFlags(flagsOf(help), "`--frobnicate`, `--frob`, `--help`"), []);
});

Deno.test("docs checks: a key missing from the doc is reported, also when a longer one is there", () => {
  const doc = '`signup` and {"fakeKey":1} and `sign-in`';
  assert.deepEqual(undocumentedKeys(["signup", "fakeKey", "sign", "zzz"], doc), ["sign", "zzz"]);
});
