/**
 * The server as one bundle: `_build/server.js`, built from main.ts by `deno bundle --platform=deno`.
 *
 * Why: loading the server from source means resolving and reading some 450 local modules and 180 npm packages
 * on every start (about 1.1 s on a 2-core machine); one bundled file loads in well under 100 ms once its code
 * cache is warm. Packages that load native code (`.node` addons) stay outside the bundle and are resolved
 * through the import map as usual. Modules that find files next to themselves must use a path that means the
 * same thing from `_build/` as from a first-level folder (`new URL("../x/", import.meta.url)`), see
 * docs/architecture.md, "Server bundle".
 */
import { newestMtimeSync } from "./_walk.ts";
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
export async function isServerBundleFresh(root = "."): Promise<boolean> {
  const stamp = Number(await Deno.readTextFile(`${root}/${STAMP}`).catch(() => "0"));
  if (!(stamp > 0)) return false;
  if (!(await Deno.stat(`${root}/${SERVER_BUNDLE}`).catch(() => null))?.isFile) return false;
  return stamp >= newestServerSource(root);
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
    const tmpName = SERVER_BUNDLE.replace(/\.js$/, `.${Deno.pid}.tmp.js`);
    const tmp = `${root}/${tmpName}`;
    const cmd = new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--platform=deno",
        ...NATIVE_PACKAGES.map((p) => `--external=${p}`),
        "-o",
        tmpName,
        "main.ts",
      ],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    });
    const out = await withDenoCacheLock("server-bundle", () => cmd.output());
    if (!out.success) {
      await Deno.remove(tmp).catch(() => {});
      throw new Error(`Bundling the server failed:\n${new TextDecoder().decode(out.stderr)}`);
    }
    await Deno.rename(tmp, `${root}/${SERVER_BUNDLE}`);
    await Deno.writeTextFile(`${root}/${STAMP}`, String(startedAt - 1));
    return true;
  });
}
