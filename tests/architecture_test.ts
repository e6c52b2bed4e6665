/**
 * The layering of docs/architecture.md, checked on every import (static, `export … from` and `import()`):
 * lib/ knows no HTTP or UI, routes never import routes, browser code (islands, components, client) reaches lib/
 * only through browser-safe modules and never `node:*` or server packages, framework/ knows nothing of ours,
 * components/ stay presentational, only client/api/ talks to the server, and main.ts, config.ts (with config/),
 * app.ts, define.ts, cli/ and middleware/ import only what their row of the table allows. Every rule is also fed
 * a violation, so a rule that stopped seeing anything fails.
 */
import assert from "node:assert/strict";
import {
  BROWSER_SAFE_MARK,
  type Edge,
  edgesOf,
  effectfulComponents,
  fileApisOutsideFloor,
  isTest,
  packageOf,
  ROOT,
  type Rule,
  RULES,
  serverCallsOutsideApi,
  sourceFiles,
  unsafeBrowserLib,
} from "./_architecture.ts";

const files = await sourceFiles();
const texts = new Map<string, string>();
for (const f of files) texts.set(f, await Deno.readTextFile(ROOT + f));
const edges = files.flatMap((f) => edgesOf(f, texts.get(f)!));

function violations(rule: Rule, of: Edge[] = edges): string[] {
  return of.filter((e) => !isTest(e.from)).map(rule).filter((x): x is string => x !== null);
}

Deno.test("architecture: the scan sees the project, dynamic imports included", () => {
  assert.ok(files.length > 100, `${files.length} files`);
  assert.ok(edges.some((e) => e.from === "islands/FileBrowser.tsx" && e.to === "client/api/mod.ts"));
  assert.ok(edges.some((e) => e.dynamic && e.from === "lib/thumbs/_render.ts" && e.to === "sharp"));
  for (const f of ["main.ts", "app.ts", "cli/users.ts"]) assert.ok(edges.some((e) => e.from === f), f);
  assert.ok(files.includes("config.ts"));
});

for (const [name, rule] of Object.entries(RULES)) {
  Deno.test(`architecture: ${name}`, () => assert.deepEqual(violations(rule), []));
}

Deno.test("architecture: lib/ modules used by browser code are marked browser-compatible and use no Deno API", () => {
  const { seen, problems } = unsafeBrowserLib(edges, texts);
  assert.ok(seen.has("lib/i18n.ts") && seen.has("lib/format.ts"));
  assert.deepEqual(problems, []);
});

Deno.test("architecture: browser code outside client/api/ calls the server through it only", () => {
  assert.ok(texts.get("client/api/http.ts")?.includes("fetch("), "the wrapper is seen");
  assert.deepEqual(serverCallsOutsideApi(texts), []);
});

Deno.test("architecture: components/ use no effect hooks", () => {
  assert.deepEqual(effectfulComponents(texts), []);
});

Deno.test("architecture: islands are top-level files whose export matches the file name", () => {
  const islands = files.filter((f) => /^islands\/[^/]+\.tsx$/.test(f) && !isTest(f));
  assert.ok(islands.length >= 6);
  for (const f of islands) {
    const name = f.slice("islands/".length, -".tsx".length);
    assert.match(texts.get(f)!, new RegExp(`export const ${name} = island\\((?:"${name}", )?`), f);
  }
});

Deno.test("architecture: packageOf() strips npm:, jsr:, versions and subpaths", () => {
  const cases: [string, string][] = [
    ["hono", "hono"],
    ["hono/cookie", "hono"],
    ["npm:hono@4.13.19", "hono"],
    ["npm:hono@4/jsx", "hono"],
    ["npm:/hono@4/jsx", "hono"],
    ["npm:@node-rs/bcrypt@1.10.7", "@node-rs/bcrypt"],
    ["@preact/signals", "@preact/signals"],
    ["jsr:@std/path@1/join", "@std/path"],
    ["node:fs/promises", "node:fs"],
  ];
  for (const [spec, want] of cases) assert.equal(packageOf(spec), want, spec);
});

/** Each rule, fed one violating file, reports it; the neighbouring allowed import passes. */
const VIOLATIONS: [rule: string, file: string, text: string, ok: string][] = [
  [
    "lib/ imports neither HTTP nor UI code",
    "lib/x.ts",
    'import { h } from "npm:preact@11";',
    'import "./y.ts";',
  ],
  ["lib/ imports neither HTTP nor UI code", "lib/x.ts", 'const m = await import("../routes/a.ts");', ""],
  ["lib/ imports neither HTTP nor UI code", "lib/x.ts", 'import { loadConfig } from "../config.ts";', ""],
  [
    "routes never import other routes",
    "routes/a.tsx",
    'import { x } from "./b.tsx";',
    'import "../lib/a.ts";',
  ],
  ["framework/ knows nothing of the app", "framework/x.ts", 'import "../lib/log.ts";', 'import "./y.ts";'],
  ["framework/ knows nothing of the app", "framework/x.ts", 'import { jwtVerify } from "jose";', ""],
  [
    "browser code imports only browser code and browser-safe lib/ modules",
    "islands/X.tsx",
    'const { run } = await import("../middleware/requests.ts");',
    'const m = await import("../client/api/mod.ts");',
  ],
  [
    "browser code imports only browser code and browser-safe lib/ modules",
    "client/x.ts",
    'import type { Data } from "../routes/files/index.tsx";',
    'import type { Data } from "../lib/types.ts";',
  ],
  [
    "browser code imports only browser code and browser-safe lib/ modules",
    "components/X.tsx",
    'import { renderPage } from "../framework/router.ts";',
    'import { island } from "../framework/island.tsx";',
  ],
  [
    "browser code imports no node:* and no server-only package",
    "client/x.ts",
    'import { readFile } from "node:fs";',
    'import { marked } from "marked";',
  ],
  [
    "browser code imports no node:* and no server-only package",
    "islands/X.tsx",
    'const s = await import("npm:sharp@0.35.5");',
    "",
  ],
  [
    "browser code imports no node:* and no server-only package",
    "components/X.tsx",
    'import { TOTP } from "npm:otpauth@9.5.2";',
    'import { marked } from "npm:marked@17";',
  ],
  [
    "components/ are presentational: no client state, API or transport",
    "components/X.tsx",
    'import { getResource } from "../client/api/mod.ts";',
    'import type { DropInfo } from "../client/api/mod.ts";',
  ],
  [
    "components/ are presentational: no client state, API or transport",
    "components/share/X.tsx",
    'import { selection } from "../../client/state.ts";',
    'import { checkPassword } from "../../client/password_policy.ts";',
  ],
  [
    "components/ are presentational: no client state, API or transport",
    "components/X.tsx",
    'import { signal } from "npm:@preact/signals@2";',
    "",
  ],
  [
    "only client/api/ uses its request wrapper",
    "islands/X.tsx",
    'import { apiFetch } from "../client/api/http.ts";',
    'import { ApiError } from "../client/api/mod.ts";',
  ],
  [
    "only client/api/ uses its request wrapper",
    "client/x.ts",
    'const { request } = await import("./api/http.ts");',
    'import "./api/resources.ts";',
  ],
  [
    "main.ts imports config.ts, app.ts, framework/build.ts and lib/",
    "main.ts",
    'import "./routes/x.ts";',
    "",
  ],
  [
    "config.ts and config/ import only config/ and lib/fs/path.ts",
    "config/load.ts",
    'import type { X } from "../lib/types.ts";',
    'import { absolutePath } from "../lib/fs/path.ts";',
  ],
  ["app.ts stays on the server side", "app.ts", 'import { Header } from "./islands/Header.tsx";', ""],
  [
    "define.ts imports framework/ and types of lib/",
    "define.ts",
    'import { getUser } from "./lib/users.ts";',
    'import type { AppEnv } from "./lib/state.ts";',
  ],
  ["define.ts imports framework/ and types of lib/", "define.ts", 'import "./routes/_app.tsx";', ""],
  [
    "cli/ imports config.ts and lib/",
    "cli/x.ts",
    'import { createApp } from "../app.ts";',
    'import "../lib/a.ts";',
  ],
  [
    "middleware/ imports lib/ and types of define.ts",
    "middleware/x.ts",
    'import { define } from "../define.ts";',
    'import type { AppContext } from "../define.ts";',
  ],
];

Deno.test("architecture: every rule fails on a violation fed to it", () => {
  for (const [name, file, text, ok] of VIOLATIONS) {
    assert.equal(violations(RULES[name], edgesOf(file, text)).length, 1, `${name}: ${text}`);
    if (ok) assert.deepEqual(violations(RULES[name], edgesOf(file, ok)), [], `${name}: ${ok}`);
  }
  assert.equal(new Set(VIOLATIONS.map((v) => v[0])).size, Object.keys(RULES).length, "a case for every rule");
});

Deno.test("architecture: the browser-safe lib/ check fails on unsafe modules reached, dynamically too", () => {
  const fake = new Map<string, string>([
    ["islands/X.tsx", 'const m = await import("../lib/a.ts");'],
    ["lib/a.ts", `${BROWSER_SAFE_MARK}\nimport "./b.ts";`],
    ["lib/b.ts", "export const x = Deno.env.get('X');"],
    ["lib/c.ts", `${BROWSER_SAFE_MARK}\nexport const c = await import("node:crypto");`],
    ["client/y.ts", 'import "../lib/c.ts";'],
  ]);
  const fakeEdges = [...fake].flatMap(([f, t]) => edgesOf(f, t));
  const { problems } = unsafeBrowserLib(fakeEdges, fake);
  assert.deepEqual(problems.sort(), [
    `lib/b.ts lacks "${BROWSER_SAFE_MARK}"`,
    "lib/b.ts uses Deno.*",
    "lib/c.ts imports node:crypto (reached from browser code)",
  ]);
});

Deno.test("architecture: the server-call and effect checks fail on violations, comments and exceptions aside", () => {
  const fake = new Map<string, string>([
    ["islands/A.tsx", "const r = await fetch(url);"],
    ["islands/B.tsx", "const data = await (await apiFetch(x)).json();"],
    ["components/C.tsx", "const ws = new WebSocket(u);\nuseEffect(() => {}, []);"],
    ["client/d.ts", "navigator.sendBeacon(u, body);\nconst s = new EventSource(u);"],
    ["client/upload/xhr.ts", "const x = new XMLHttpRequest();\nawait fetch(u);"],
    // Allowed: the API package, the documented exception, comments, and names that only contain "fetch".
    ["client/api/x.ts", "await fetch(u); await res.json();"],
    ["client/partial.ts", "const res = await fetch(url); const d = await res.json();"],
    ["islands/E.tsx", "// fetch(u) and res.json() in a comment\n/* new WebSocket(u) */\nawait refetch();"],
    ["islands/F_test.ts", "await fetch(u);"],
    ["lib/g.ts", "await fetch(u);"],
  ]);
  assert.deepEqual(serverCallsOutsideApi(fake).sort(), [
    "client/d.ts calls EventSource",
    "client/d.ts calls sendBeacon",
    "client/upload/xhr.ts calls fetch",
    "components/C.tsx calls WebSocket",
    "islands/A.tsx calls fetch",
    "islands/B.tsx calls Response.json()",
  ]);
  assert.deepEqual(effectfulComponents(fake), ["components/C.tsx uses an effect hook"]);
});

Deno.test("architecture: Deno's file APIs reach user paths through the disk floor only", () => {
  assert.deepEqual(fileApisOutsideFloor(texts), []);
});

Deno.test("architecture: the disk floor check fails on a file API call outside it, exemptions aside", () => {
  const fake = new Map<string, string>([
    ["lib/fs/x.ts", "const f = await Deno.open(p.real);\nconst s = Deno.lstatSync(path);"],
    ["routes/api/y.ts", "await Deno.readTextFile(file);"],
    [
      "lib/z.ts",
      "// floor-exempt: the server's own cache\nawait Deno.remove(cache);\n// Deno.open(x) in a comment",
    ],
    ["lib/fs/floor.ts", "await Deno.open(pin.path);"],
    ["lib/fs/x_test.ts", "await Deno.open(p.real);"],
  ]);
  assert.deepEqual(fileApisOutsideFloor(fake).sort(), [
    "lib/fs/x.ts:1 calls Deno.open outside the disk floor",
    "lib/fs/x.ts:2 calls Deno.lstatSync outside the disk floor",
    "routes/api/y.ts:1 calls Deno.readTextFile outside the disk floor",
  ]);
});
