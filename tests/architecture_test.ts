/**
 * The layering of docs/architecture.md, checked on every import (static, `export … from` and `import()`):
 * lib/ knows no HTTP or UI, routes never import routes, browser code (islands, components, client) reaches lib/
 * only through browser-safe modules and never `node:*` or server packages, framework/ knows nothing of ours,
 * components/ stay presentational, only client/api/ talks to the server, and main.ts, config.ts (with config/),
 * app.ts, define.ts, cli/ and middleware/ import only what their row of the table allows. Every rule is also fed
 * a violation, so a rule that stopped seeing anything fails.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url).pathname;
const SKIP = /^(node_modules|\.tools|_build|data|files|tests\/_artifacts|bench\/_work|\.git)(\/|$)/;
const BROWSER_SAFE_MARK = "// This module is browser-compatible.";
/** npm packages that must never reach the browser (or lib/ for the UI ones). */
const SERVER_ONLY_NPM = [
  "hono",
  "sharp",
  "jose",
  "@node-rs/bcrypt",
  "playwright-core",
  "preact-render-to-string",
  "lz4-napi",
  "snappy",
  // Two-factor secrets are checked on the server only (its browser build would work, which is the danger).
  "otpauth",
];
const UI_NPM = ["preact", "react", "react-dom", "@preact/signals", "lucide", "preact-render-to-string"];
/** The framework modules browser code may import. */
const BROWSER_FRAMEWORK = [
  "framework/island.tsx",
  "framework/render_context.ts",
  "framework/head.ts",
  // The browser runtime: client-side navigation swaps the main area and hydrates its islands (client/partial.ts).
  "framework/client.ts",
];

/** What components/ may not import: client state, the API and transports (a component gets data as props). */
const NOT_FOR_COMPONENTS = [
  /^client\/api\//,
  /^client\/(state|session|router|prompts|toasts|drop|partial|selection)\.ts$/,
  /^client\/upload\//,
];

interface Edge {
  from: string;
  /** Project-relative path of a local target, or the package name (`hono`, `@scope/pkg`, `node:fs`). */
  to: string;
  local: boolean;
  typeOnly: boolean;
  dynamic: boolean;
}

async function sourceFiles(dir = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(ROOT + dir)) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (SKIP.test(rel)) continue;
    if (e.isDirectory) out.push(...await sourceFiles(rel));
    else if (/\.(ts|tsx)$/.test(e.name)) out.push(rel);
  }
  return out;
}

function normalize(path: string): string {
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "..") out.pop();
    else if (seg !== "." && seg !== "") out.push(seg);
  }
  return out.join("/");
}

/** The package a bare specifier names: `npm:@a/b@1.2/x` → `@a/b`, `hono/cookie` → `hono`, `node:fs` stays. */
export function packageOf(spec: string): string {
  if (spec.startsWith("node:")) return spec.split("/")[0];
  const bare = spec.replace(/^(npm|jsr):\/?/, "");
  const parts = bare.split("/");
  const name = bare.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  // Strip a version: `hono@4.1.0`, `@scope/pkg@^1`.
  return name.replace(/(?<=.)@[^/]*$/, "");
}

function edgesOf(file: string, text: string): Edge[] {
  const edges: Edge[] = [];
  const add = (spec: string, typeOnly: boolean, dynamic: boolean) => {
    if (spec.startsWith(".")) {
      const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : "";
      edges.push({ from: file, to: normalize(`${dir}/${spec}`), local: true, typeOnly, dynamic });
    } else {
      edges.push({ from: file, to: packageOf(spec), local: false, typeOnly, dynamic });
    }
  };
  const staticRe = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^"';]*?\s+from\s+)?["']([^"']+)["']/g;
  for (const m of text.matchAll(staticRe)) add(m[3], !!m[2], false);
  // `import("x")`, except in a type position (`typeof import("x")`, `: import("x").T`).
  const dynamicRe = /(typeof\s+|:\s*)?\bimport\s*\(\s*["'`]([^"'`]+)["'`]\s*\)/g;
  for (const m of text.matchAll(dynamicRe)) add(m[2], !!m[1], !m[1]);
  return edges;
}

const isTest = (f: string) => /_test\.tsx?$/.test(f) || f.startsWith("tests/") || f.startsWith("bench/");
const area = (f: string) => f.split("/")[0];
const browserSide = (f: string) => ["islands", "components", "client"].includes(area(f)) && !isTest(f);

type Rule = (e: Edge) => string | null;
const bad = (e: Edge, why = "") => `${e.from} imports ${e.to}${why}`;

/** The import rules, by name; each returns a message for a violating edge. */
const RULES: Record<string, Rule> = {
  "lib/ imports neither HTTP nor UI code": (e) => {
    if (area(e.from) !== "lib") return null;
    if (!e.local) return e.to === "hono" || UI_NPM.includes(e.to) ? bad(e) : null;
    if (e.to === "config.ts") return e.typeOnly ? null : bad(e, " (only `import type`)");
    return area(e.to) === "lib" ? null : bad(e);
  },
  "routes never import other routes": (e) =>
    area(e.from) === "routes" && e.local && area(e.to) === "routes" ? bad(e) : null,
  "framework/ knows nothing of the app": (e) => {
    if (area(e.from) !== "framework") return null;
    if (e.local) return area(e.to) === "framework" ? null : bad(e);
    return ["hono", "preact", "preact-render-to-string"].includes(e.to) || e.to.startsWith("node:")
      ? null
      : bad(e);
  },
  "browser code imports only browser code and browser-safe lib/ modules": (e) => {
    if (!browserSide(e.from)) return null;
    const allowed: Record<string, string[]> = {
      islands: ["islands", "components", "client", "lib", "framework"],
      components: ["components", "client", "lib", "framework"],
      client: ["client", "components", "lib", "framework"],
    };
    if (!e.local) return null;
    const to = area(e.to);
    if (to === "routes") return bad(e, " (shared types belong in lib/types.ts)");
    if (e.typeOnly) return null;
    if (!allowed[area(e.from)].includes(to)) return bad(e);
    if (to === "framework" && !BROWSER_FRAMEWORK.includes(e.to)) return bad(e);
    return null;
  },
  "browser code imports no node:* and no server-only package": (e) => {
    if (!browserSide(e.from) || e.local) return null;
    if (e.to.startsWith("node:")) return bad(e);
    return SERVER_ONLY_NPM.includes(e.to) ? bad(e) : null;
  },
  "components/ are presentational: no client state, API or transport": (e) => {
    if (area(e.from) !== "components" || e.typeOnly) return null;
    if (!e.local) return e.to === "@preact/signals" ? bad(e, " (state belongs in client/)") : null;
    return NOT_FOR_COMPONENTS.some((re) => re.test(e.to))
      ? bad(e, " (pass data and callbacks as props)")
      : null;
  },
  "only client/api/ uses its request wrapper": (e) =>
    e.local && e.to === "client/api/http.ts" && !e.from.startsWith("client/api/")
      ? bad(e, " (import the resource module or client/api/mod.ts)")
      : null,
  "main.ts imports config.ts, app.ts, framework/build.ts and lib/": (e) => {
    if (e.from !== "main.ts" || !e.local) return null;
    return ["config.ts", "app.ts", "framework/build.ts"].includes(e.to) || area(e.to) === "lib"
      ? null
      : bad(e);
  },
  "config.ts and config/ import only config/ and lib/fs/path.ts": (e) => {
    if ((e.from !== "config.ts" && area(e.from) !== "config") || !e.local) return null;
    return area(e.to) === "config" || e.to === "lib/fs/path.ts" ? null : bad(e);
  },
  "app.ts stays on the server side": (e) => {
    if (e.from !== "app.ts") return null;
    if (!e.local) return UI_NPM.includes(e.to) && e.to !== "preact-render-to-string" ? bad(e) : null;
    if (["routes.gen.ts", "config.ts"].includes(e.to)) return null;
    return ["framework", "lib", "middleware"].includes(area(e.to)) ? null : bad(e);
  },
  "define.ts imports framework/ and types of lib/": (e) => {
    if (e.from !== "define.ts") return null;
    if (!e.local) return UI_NPM.includes(e.to) ? bad(e) : null;
    if (area(e.to) === "framework") return null;
    return area(e.to) === "lib" && e.typeOnly
      ? null
      : bad(e, e.to.startsWith("lib/") ? " (only `import type`)" : "");
  },
  "cli/ imports config.ts and lib/": (e) => {
    if (area(e.from) !== "cli" || !e.local) return null;
    return e.to === "config.ts" || ["lib", "cli"].includes(area(e.to)) ? null : bad(e);
  },
  "middleware/ imports lib/ and types of define.ts": (e) => {
    if (area(e.from) !== "middleware") return null;
    if (!e.local) return UI_NPM.includes(e.to) ? bad(e) : null;
    if (e.to === "define.ts") return e.typeOnly ? null : bad(e, " (only `import type`)");
    return ["lib", "middleware"].includes(area(e.to)) ? null : bad(e);
  },
};

/** lib/ modules browser code reaches (value imports, static or dynamic, through lib/) that are not safe. */
function unsafeBrowserLib(
  edges: Edge[],
  texts: Map<string, string>,
): { seen: Set<string>; problems: string[] } {
  const seen = new Set<string>();
  const queue = edges.filter((e) => browserSide(e.from) && e.local && !e.typeOnly && area(e.to) === "lib")
    .map((e) => e.to);
  while (queue.length) {
    const f = queue.shift()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const e of edges) if (e.from === f && e.local && !e.typeOnly) queue.push(e.to);
  }
  const problems = [...seen].flatMap((f) => {
    const text = texts.get(f);
    if (text === undefined) return [`${f} is missing`];
    const out: string[] = [];
    if (!text.startsWith(BROWSER_SAFE_MARK)) out.push(`${f} lacks "${BROWSER_SAFE_MARK}"`);
    if (/\bDeno\./.test(text.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, ""))) out.push(`${f} uses Deno.*`);
    for (const e of edges) {
      if (
        e.from === f && !e.local && !e.typeOnly &&
        (e.to.startsWith("node:") || SERVER_ONLY_NPM.includes(e.to))
      ) {
        out.push(bad(e, " (reached from browser code)"));
      }
    }
    return out;
  });
  return { seen, problems };
}

/** Calls that reach the server; browser code makes them only inside client/api/. */
const SERVER_CALLS: [name: string, re: RegExp][] = [
  ["fetch", /(?<![\w.$])fetch\s*\(/],
  ["Response.json()", /\.json\(\s*\)/],
  ["XMLHttpRequest", /\bnew\s+XMLHttpRequest\b/],
  ["WebSocket", /\bnew\s+WebSocket\b/],
  ["EventSource", /\bnew\s+EventSource\b/],
  ["sendBeacon", /\bsendBeacon\s*\(/],
];
/** The exceptions, with their reason. */
const SERVER_CALL_EXCEPTIONS: Record<string, string[]> = {
  // Client-side navigation loads pages, not the API: no token, no error mapping (a failure loads the page).
  "client/partial.ts": ["fetch", "Response.json()"],
  // Uploads need progress events, which fetch does not give.
  "client/upload/xhr.ts": ["XMLHttpRequest"],
};

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|(?<![:"'`])\/\/.*$/gm, "");
}

/** Browser modules outside client/api/ that call the server themselves. */
function serverCallsOutsideApi(sources: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [f, text] of sources) {
    if (!browserSide(f) || f.startsWith("client/api/")) continue;
    const code = withoutComments(text);
    for (const [name, re] of SERVER_CALLS) {
      if (re.test(code) && !SERVER_CALL_EXCEPTIONS[f]?.includes(name)) out.push(`${f} calls ${name}`);
    }
  }
  return out;
}

/** Components with side effects: an effect hook runs code after rendering, which a view never needs. */
function effectfulComponents(sources: Map<string, string>): string[] {
  return [...sources].filter(([f, text]) =>
    area(f) === "components" && !isTest(f) && /\buse(Layout)?Effect\s*\(/.test(withoutComments(text))
  ).map(([f]) => `${f} uses an effect hook`);
}

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
