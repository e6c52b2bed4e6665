/** The import graph of the project and the rules of docs/architecture.md over it (tests/architecture_test.ts). */
export const ROOT = new URL("../", import.meta.url).pathname;
export const SKIP = /^(node_modules|\.tools|_build|data|files|tests\/_artifacts|bench\/_work|\.git)(\/|$)/;
export const BROWSER_SAFE_MARK = "// This module is browser-compatible.";
/** npm packages that must never reach the browser (or lib/ for the UI ones). */
export const SERVER_ONLY_NPM = [
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
export const UI_NPM = [
  "preact",
  "react",
  "react-dom",
  "@preact/signals",
  "lucide",
  "preact-render-to-string",
];
/** The framework modules browser code may import. */
export const BROWSER_FRAMEWORK = [
  "framework/island.tsx",
  "framework/render_context.ts",
  "framework/head.ts",
  // The browser runtime: client-side navigation swaps the main area and hydrates its islands (client/partial.ts).
  "framework/client.ts",
];

/** What components/ may not import: client state, the API and transports (a component gets data as props). */
export const NOT_FOR_COMPONENTS = [
  /^client\/api\//,
  /^client\/(state|session|router|prompts|toasts|drop|partial|selection)\.ts$/,
  /^client\/upload\//,
];

export interface Edge {
  from: string;
  /** Project-relative path of a local target, or the package name (`hono`, `@scope/pkg`, `node:fs`). */
  to: string;
  local: boolean;
  typeOnly: boolean;
  dynamic: boolean;
}

export async function sourceFiles(dir = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(ROOT + dir)) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (SKIP.test(rel)) continue;
    if (e.isDirectory) out.push(...await sourceFiles(rel));
    else if (/\.(ts|tsx)$/.test(e.name)) out.push(rel);
  }
  return out;
}

export function normalize(path: string): string {
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

export function edgesOf(file: string, text: string): Edge[] {
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

export const isTest = (f: string) =>
  /_test\.tsx?$/.test(f) || f.startsWith("tests/") || f.startsWith("bench/");
export const area = (f: string) => f.split("/")[0];
export const browserSide = (f: string) => ["islands", "components", "client"].includes(area(f)) && !isTest(f);

export type Rule = (e: Edge) => string | null;
export const bad = (e: Edge, why = "") => `${e.from} imports ${e.to}${why}`;

/** The import rules, by name; each returns a message for a violating edge. */
export const RULES: Record<string, Rule> = {
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
export function unsafeBrowserLib(
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
export const SERVER_CALLS: [name: string, re: RegExp][] = [
  ["fetch", /(?<![\w.$])fetch\s*\(/],
  ["Response.json()", /\.json\(\s*\)/],
  ["XMLHttpRequest", /\bnew\s+XMLHttpRequest\b/],
  ["WebSocket", /\bnew\s+WebSocket\b/],
  ["EventSource", /\bnew\s+EventSource\b/],
  ["sendBeacon", /\bsendBeacon\s*\(/],
];
/** The exceptions, with their reason. */
export const SERVER_CALL_EXCEPTIONS: Record<string, string[]> = {
  // Client-side navigation loads pages, not the API: no token, no error mapping (a failure loads the page).
  "client/partial.ts": ["fetch", "Response.json()"],
  // Uploads need progress events, which fetch does not give.
  "client/upload/xhr.ts": ["XMLHttpRequest"],
};

export function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|(?<![:"'`])\/\/.*$/gm, "");
}

/** Browser modules outside client/api/ that call the server themselves. */
export function serverCallsOutsideApi(sources: Map<string, string>): string[] {
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
export function effectfulComponents(sources: Map<string, string>): string[] {
  return [...sources].filter(([f, text]) =>
    area(f) === "components" && !isTest(f) && /\buse(Layout)?Effect\s*\(/.test(withoutComments(text))
  ).map(([f]) => `${f} uses an effect hook`);
}

/** Deno's file APIs that resolve a path: on user paths they belong to the disk floor (lib/fs/floor.ts) only. */
export const FILE_APIS =
  /\bDeno\.(open|openSync|readFile|readFileSync|readTextFile|readTextFileSync|writeFile|writeFileSync|writeTextFile|writeTextFileSync|remove|removeSync|rename|renameSync|stat|statSync|lstat|lstatSync|realPath|realPathSync|readDir|readDirSync|mkdir|mkdirSync|copyFile|copyFileSync|chmod|chmodSync|chown|symlink|symlinkSync|readLink|readLinkSync|create|createSync|truncate|truncateSync|utime|utimeSync|link|linkSync|makeTempDir|makeTempFile)\(/;

/**
 * Modules of lib/ that may call Deno's file APIs directly, each with the reason: they touch only the server's
 * own paths (never a user's files), or they are the floor and its gate. Anywhere else a call needs a
 * `floor-exempt:` comment on its line or the line before, saying why it is not a use of a user path.
 */
export const FLOOR_EXEMPT_FILES: Record<string, string> = {
  "lib/fs/floor.ts": "the floor itself: every call takes a pinned path",
  "lib/fs/confine.ts": "the gate's resolution: it checks paths, the floor then opens what it found",
  "lib/fs/gate.ts": "the real path of a confinement root, checked against the files root",
  "lib/fs/atomic.ts": "works on paths in a folder pinned by placeAtomically (or on the server's own files)",
  "lib/fs/case_probe.ts": "probes the files root itself once at start with a file of its own",
  "lib/fs/dir_stat.ts": "the portable fallback where the floor cannot pin (no FFI)",
  "lib/fs/_listing_reference.ts": "a test reference implementation",
  "lib/boot.ts": "the server's data, cache and upload folders",
  "lib/bbolt/db.ts": "reads a filebrowser database file named on the command line",
  "lib/runner/cgroup.ts": "the cgroup file system",
  "lib/runner/sandbox.ts": "bubblewrap's own files and the host's /etc",
  "lib/search/index/snapshot.ts": "the index snapshot in the server's data folder",
  "lib/upload/staging.ts": "upload staging in the server's upload folder",
  "lib/upload/sweep.ts": "upload staging in the server's upload folder",
  "lib/upload/background_sync.ts": "upload staging in the server's upload folder",
  "lib/upload/chunk_writer.ts": "upload staging in the server's upload folder",
  "lib/thumbs/mod.ts": "the thumbnail cache in the server's cache folder",
  "lib/project_root.ts": "the project's own files",
};

/** Calls of Deno's file APIs outside the floor in lib/, routes/ and middleware/ (comments and tests aside). */
export function fileApisOutsideFloor(sources: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [file, text] of sources) {
    if (isTest(file) || !["lib", "routes", "middleware"].includes(area(file))) continue;
    // Test helpers (`_testing.ts` and the like) build fixtures; they are not reached by requests.
    if (file in FLOOR_EXEMPT_FILES || /\/_[^/]*\.ts$/.test(file)) continue;
    const lines = text.split("\n");
    // Comments blanked line by line, so line numbers stay those of the file.
    const code = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " ")).split("\n")
      .map((line) => line.replace(/(?<![:"'`])\/\/.*$/, ""));
    code.forEach((line, i) => {
      const m = FILE_APIS.exec(line);
      if (m === null) return;
      // The reason stands on the line or in the comment block right above it.
      let exempt = lines[i].includes("floor-exempt:");
      for (let j = i - 1; !exempt && j >= 0 && /^\s*\/\//.test(lines[j]); j--) {
        exempt = lines[j].includes("floor-exempt:");
      }
      if (exempt) return;
      out.push(`${file}:${i + 1} calls Deno.${m[1]} outside the disk floor`);
    });
  }
  return out;
}
