/**
 * The layering of docs/architecture.md, checked on every import: lib/ knows no HTTP or UI, routes never import
 * routes, browser code (islands, components, client) reaches lib/ only through browser-safe modules, framework/
 * knows nothing of ours.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url).pathname;
const SKIP = /^(node_modules|\.tools|_build|data|files|tests\/_artifacts|bench\/_work|\.git)(\/|$)/;
const BROWSER_SAFE_MARK = "// This module is browser-compatible.";
/** npm packages that must never reach the browser (or lib/ for the UI ones). */
const SERVER_ONLY_NPM = ["hono", "sharp", "jose", "@node-rs/bcrypt", "playwright-core"];
const UI_NPM = ["preact", "react", "react-dom", "@preact/signals", "lucide", "preact-render-to-string"];

interface Edge {
  from: string;
  /** Project-relative path of a local target, or the bare npm specifier. */
  to: string;
  local: boolean;
  typeOnly: boolean;
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

function edgesOf(file: string, text: string): Edge[] {
  const edges: Edge[] = [];
  const re = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^"';]*?\s+from\s+)?["']([^"']+)["']/g;
  for (const m of text.matchAll(re)) {
    const spec = m[3];
    const typeOnly = !!m[2];
    if (spec.startsWith(".")) {
      const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : "";
      edges.push({ from: file, to: normalize(`${dir}/${spec}`), local: true, typeOnly });
    } else {
      const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0];
      edges.push({ from: file, to: name.replace(/^npm:/, ""), local: false, typeOnly });
    }
  }
  return edges;
}

const files = await sourceFiles();
const texts = new Map<string, string>();
for (const f of files) texts.set(f, await Deno.readTextFile(ROOT + f));
const edges = files.flatMap((f) => edgesOf(f, texts.get(f)!));
const isTest = (f: string) => /_test\.tsx?$/.test(f) || f.startsWith("tests/") || f.startsWith("bench/");
const area = (f: string) => f.split("/")[0];
const browserSide = (f: string) => ["islands", "components", "client"].includes(area(f)) && !isTest(f);

function violations(check: (e: Edge) => string | null): string[] {
  return edges.filter((e) => !isTest(e.from)).map(check).filter((x): x is string => x !== null);
}

Deno.test("architecture: the scan sees the project", () => {
  assert.ok(files.length > 100, `${files.length} files`);
  assert.ok(edges.some((e) => e.from === "islands/FileBrowser.tsx" && e.to === "client/api.ts"));
});

Deno.test("architecture: lib/ imports neither HTTP nor UI code", () => {
  const bad = violations((e) => {
    if (area(e.from) !== "lib") return null;
    if (!e.local) {
      return e.to === "hono" || UI_NPM.includes(e.to) ? `${e.from} imports ${e.to}` : null;
    }
    if (e.to === "config.ts") return e.typeOnly ? null : `${e.from} imports config.ts (only \`import type\`)`;
    return area(e.to) === "lib" ? null : `${e.from} imports ${e.to}`;
  });
  assert.deepEqual(bad, []);
});

Deno.test("architecture: routes never import other routes", () => {
  assert.deepEqual(
    violations((e) =>
      area(e.from) === "routes" && area(e.to) === "routes" && e.local ? `${e.from} imports ${e.to}` : null
    ),
    [],
  );
});

Deno.test("architecture: framework/ knows nothing of the app", () => {
  const bad = violations((e) => {
    if (area(e.from) !== "framework") return null;
    if (e.local) return area(e.to) === "framework" ? null : `${e.from} imports ${e.to}`;
    return ["hono", "preact", "preact-render-to-string"].includes(e.to) ? null : `${e.from} imports ${e.to}`;
  });
  assert.deepEqual(bad, []);
});

Deno.test("architecture: browser code imports only browser code and browser-safe lib/ modules", () => {
  const allowedAreas: Record<string, string[]> = {
    islands: ["islands", "components", "client", "lib", "framework"],
    components: ["components", "client", "lib"],
    client: ["client", "components", "lib", "framework"],
  };
  const bad = violations((e) => {
    if (!browserSide(e.from)) return null;
    if (!e.local) return SERVER_ONLY_NPM.includes(e.to) ? `${e.from} imports ${e.to}` : null;
    if (e.typeOnly) return null;
    const to = area(e.to);
    if (!allowedAreas[area(e.from)].includes(to)) return `${e.from} imports ${e.to}`;
    if (to === "framework" && !["framework/island.tsx", "framework/render_context.ts"].includes(e.to)) {
      return `${e.from} imports ${e.to}`;
    }
    return null;
  });
  assert.deepEqual(bad, []);
});

Deno.test("architecture: lib/ modules used by browser code are marked browser-compatible and use no Deno API", () => {
  // Walk value imports from every browser file into lib/ (and on through lib/).
  const seen = new Set<string>();
  const queue = edges.filter((e) => browserSide(e.from) && e.local && !e.typeOnly && area(e.to) === "lib")
    .map((e) => e.to);
  while (queue.length) {
    const f = queue.shift()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const e of edges) if (e.from === f && e.local && !e.typeOnly) queue.push(e.to);
  }
  assert.ok(seen.has("lib/i18n.ts") && seen.has("lib/format.ts"));
  const bad = [...seen].flatMap((f) => {
    const text = texts.get(f);
    if (text === undefined) return [`${f} is missing`];
    const problems: string[] = [];
    if (!text.startsWith(BROWSER_SAFE_MARK)) problems.push(`${f} lacks "${BROWSER_SAFE_MARK}"`);
    if (/\bDeno\./.test(text.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, ""))) problems.push(`${f} uses Deno.*`);
    return problems;
  });
  assert.deepEqual(bad, []);
});

Deno.test("architecture: islands are top-level files whose export matches the file name", () => {
  const islands = files.filter((f) => /^islands\/[^/]+\.tsx$/.test(f) && !isTest(f));
  assert.ok(islands.length >= 6);
  for (const f of islands) {
    const name = f.slice("islands/".length, -".tsx".length);
    assert.match(texts.get(f)!, new RegExp(`export const ${name} = island\\((?:"${name}", )?`), f);
  }
});
