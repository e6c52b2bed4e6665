/**
 * `deno task start`: builds what is missing or stale (the route manifest, the island bundles, the server
 * bundle), then runs the bundled server `_build/server.js` (see framework/server_bundle.ts). When the server
 * bundle cannot be built, the server runs from source (main.ts) after a one-line warning: slower to start,
 * same behaviour.
 */
import { build } from "./framework/build.ts";
import { bundleServer, isEverythingFresh, SERVER_BUNDLE } from "./framework/server_bundle.ts";

const root = new URL(".", import.meta.url).pathname.replace(/\/$/, "");
let entry = "./main.ts";
try {
  // One cheap check (one stat per source file); building happens only after a change, under the build lock.
  if (!(await isEverythingFresh(root))) {
    await build({ root });
    await bundleServer({ root });
  }
  entry = `./${SERVER_BUNDLE}`;
} catch (err) {
  // deno-lint-ignore no-console -- the server's logger is not loaded yet; one line at start
  console.warn(`Starting from source: ${(err as Error).message.split("\n")[0]}`);
}
await import(new URL(entry, import.meta.url).href);
