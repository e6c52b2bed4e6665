/**
 * The server as a bundle: `_build/server.js` and its lazily loaded chunks next to it, built from main.ts by
 * `deno bundle --platform=deno --code-splitting`.
 *
 * Why: loading the server from source means resolving and reading some 450 local modules and 180 npm packages
 * on every start (about 1.1 s on a 2-core machine); one bundled file loads in well under 100 ms once its code
 * cache is warm. Packages that load native code (`.node` addons) stay outside the bundle and are resolved
 * through the import map as usual. Modules that find files next to themselves must use a path that means the
 * same thing from `_build/` as from a first-level folder (`new URL("../x/", import.meta.url)`), see
 * docs/architecture.md, "Server bundle".
 */
import { newestMtimesSync, newestMtimeSync } from "./_walk.ts";
import { isBuildFresh, isClientSource } from "./build.ts";
import { withDenoCacheLock, withLockFile } from "./lock.ts";

/** Output of the server bundle, relative to the project root. */
export const SERVER_BUNDLE = "_build/server.js";
const STAMP = "_build/server.stamp";
/** Packages with native addons: loaded from node_modules at run time, never inlined. */
export const NATIVE_PACKAGES = ["sharp", "@node-rs/bcrypt", "lz4-napi", "snappy"];
/** Folders that hold no server code (or generated output). */
const SKIP = new Set([
  "node_modules",
  ".tools",
  "_build",
  ".git",
  "tests",
  "bench",
  "docs",
  "data",
  "static",
]);
const SOURCE = /\.(tsx?|jsx?|json)$|^deno\.lock$/;

/** The newest modification time of any server source (code, import map, lock file) under root. */
export function newestServerSource(root: string): number {
  return newestMtimeSync(root, (name) => SOURCE.test(name), SKIP);
}

/** True when `_build/server.js` exists and is newer than every server source. */
export async function isServerBundleFresh(root = ".", newestSource?: number): Promise<boolean> {
  const stamp = Number(await Deno.readTextFile(`${root}/${STAMP}`).catch(() => "0"));
  if (!(stamp > 0)) return false;
  if (!(await Deno.stat(`${root}/${SERVER_BUNDLE}`).catch(() => null))?.isFile) return false;
  return stamp >= (newestSource ?? newestServerSource(root));
}

/**
 * The newest modification times of the server sources and of the client sources, from one walk of the
 * project (the start's freshness check: the two sets are mostly the same files, so this stats each once).
 */
export function newestSources(root: string): { server: number; client: number } {
  const [server, client] = newestMtimesSync(root, [
    (name) => SOURCE.test(name),
    (_name, relative) => isClientSource(relative),
  ], SKIP);
  return { server, client };
}

/** True when both the island bundles and the server bundle are newer than their sources (one walk). */
export async function isEverythingFresh(root = "."): Promise<boolean> {
  const newest = newestSources(root);
  return await isBuildFresh(root, newest.client) && await isServerBundleFresh(root, newest.server);
}

/**
 * Bundles main.ts into `_build/server.js` when it is missing or stale (or when forced), under the build lock;
 * true when it bundled. The file is written under a temporary name and renamed, so a server starting meanwhile
 * never imports half a bundle.
 */
export async function bundleServer(options: { root?: string; force?: boolean } = {}): Promise<boolean> {
  const root = options.root ?? ".";
  await Deno.mkdir(`${root}/_build`, { recursive: true });
  return await withLockFile(`${root}/_build/.server.lock`, async () => {
    if (!options.force && await isServerBundleFresh(root)) return false;
    // The stamp is the time the build started: a source edited while bundling makes the next check rebuild.
    const startedAt = Date.now();
    const tmpName = `_build/.server.${Deno.pid}.tmp`;
    const tmp = `${root}/${tmpName}`;
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    const cmd = new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--platform=deno",
        // Modules reached only through import() go to chunks of their own, read on first use: the editor,
        // terminal and preview code that islands load lazily is then neither read nor kept at start.
        "--code-splitting",
        ...NATIVE_PACKAGES.map((p) => `--external=${p}`),
        "--outdir",
        tmpName,
        "main.ts",
      ],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    });
    const out = await withDenoCacheLock("server-bundle", () => cmd.output());
    if (!out.success) {
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
      throw new Error(`Bundling the server failed:\n${new TextDecoder().decode(out.stderr)}`);
    }
    for await (const e of Deno.readDir(tmp)) {
      if (e.isFile && e.name.endsWith(".js")) {
        const file = `${tmp}/${e.name}`;
        const text = await Deno.readTextFile(file);
        const ascii = escapeNonAscii(lazyNodeRequire(text));
        if (ascii !== text) await Deno.writeTextFile(file, ascii);
      }
    }
    await placeChunks(root, tmp);
    await Deno.writeTextFile(`${root}/${STAMP}`, String(startedAt - 1));
    return true;
  });
}

/** The `require` shim `deno bundle` puts at the top of its shared runtime chunk (see {@link lazyNodeRequire}). */
const EAGER_REQUIRE = 'import { createRequire as __deno_internal_createRequire } from "node:module";\n' +
  "var __require = __deno_internal_createRequire(import.meta.url);\n";

/**
 * The bundle with its `require` shim made lazy. `deno bundle` makes one for the CommonJS packages it inlines
 * and creates it where the shared runtime chunk is evaluated, at start: importing `node:module` brings up
 * Deno's Node compatibility layer (some 30 ms and 5 MiB). Only lazily loaded chunks call it (tus-js-client's
 * Node dependencies), so it is created on the first call instead. Text without that exact shim is returned
 * unchanged.
 */
export function lazyNodeRequire(text: string): string {
  return text.replace(
    EAGER_REQUIRE,
    "var __deno_internal_require;\n" +
      "var __require = (id) => (__deno_internal_require ??= " +
      'globalThis.process.getBuiltinModule("node:module").createRequire(import.meta.url))(id);\n',
  );
}

/**
 * The bundle with every non-ASCII character written as a `\uXXXX` escape, which means the same in strings,
 * template literals, regular expressions, identifiers and comments. V8 keeps a module's source on its heap, one
 * byte per character when every character fits in one and two otherwise: three accented letters and an arrow
 * in comments made the 1.7 MB server bundle take 3.3 MiB instead of 1.6. A backslash escaping the character
 * (`\é`, an identity escape) is dropped with it, as `\u00e9` is the escape already.
 */
export function escapeNonAscii(text: string): string {
  return text.replace(/(\\*)([\x80-\uffff])/g, (_, slashes: string, ch: string) => {
    const kept = slashes.length % 2 === 1 ? slashes.slice(1) : slashes;
    return `${kept}\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

/**
 * Moves the chunks of a split bundle next to `_build/server.js` (their names carry a hash of their content, so
 * one of the same name is the same file), then the entry itself, last, over the old one. Chunks of earlier
 * bundles are removed after an hour (a server started before the rebuild may still load them).
 */
async function placeChunks(root: string, tmp: string): Promise<void> {
  const fresh = new Set<string>();
  for await (const e of Deno.readDir(tmp)) {
    if (!e.isFile || e.name === "main.js") continue;
    fresh.add(e.name);
    await Deno.rename(`${tmp}/${e.name}`, `${root}/_build/${e.name}`);
  }
  await Deno.rename(`${tmp}/main.js`, `${root}/${SERVER_BUNDLE}`);
  await Deno.remove(tmp, { recursive: true });
  const old = Date.now() - 3600_000;
  for await (const e of Deno.readDir(`${root}/_build`)) {
    if (!e.isFile || !e.name.endsWith(".js") || fresh.has(e.name) || `_build/${e.name}` === SERVER_BUNDLE) {
      continue;
    }
    const mtime = (await Deno.stat(`${root}/_build/${e.name}`).catch(() => null))?.mtime?.getTime() ?? old;
    if (mtime < old) await Deno.remove(`${root}/_build/${e.name}`).catch(() => {});
  }
}
