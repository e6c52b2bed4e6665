/** Boot: loadConfig() → open KV → first-start setup → createApp(deps) → Deno.serve. */
import { helpText, loadConfig } from "./config.ts";
import { createApp } from "./app.ts";
import { build } from "./framework/build.ts";
import { log, setLogLevel } from "./lib/log.ts";
import { onServeError } from "./lib/serve_error.ts";
import { bootDeps } from "./lib/boot.ts";
import { ExecUnavailableError } from "./lib/runner/mod.ts";
import { cleanupUploads, releaseParkedLeases } from "./lib/upload/mod.ts";
import { FolderSizeCache } from "./lib/fs/folder_size_cache.ts";
import { ListingCache } from "./lib/fs/listing_cache.ts";
import { startPublishing } from "./lib/publish/mod.ts";

let config;
try {
  config = loadConfig();
} catch (err) {
  log.error((err as Error).message);
  log.error("Run with --help to list the options.");
  Deno.exit(2);
}
if (config.help) {
  // deno-lint-ignore no-console -- help output goes to stdout as is
  console.log(helpText());
  Deno.exit(0);
}
setLogLevel(config.logLevel);
await build();
const { deps, firstStart, warnings } = await bootDeps(config).catch((err) => {
  if (!(err instanceof ExecUnavailableError)) throw err;
  log.error(err.message);
  Deno.exit(2);
});
for (const w of warnings) log.warn(w);
if (firstStart.password) {
  log.info(`first start: admin user "${config.adminUsername}" created with password: ${firstStart.password}`);
  log.info("this password is shown only once; change it under Settings > Profile");
}
// Directory listings are cached in memory and invalidated by file-system events (lib/fs/listing_cache.ts).
deps.listings = new ListingCache();
// Folder sizes are cached until a recursive watcher sees a change (lib/fs/folder_size_cache.ts).
deps.folderSizes = new FolderSizeCache();
// Due publish schedules arrive through the KV queue; the listener ends when KV is closed.
startPublishing(deps).catch((err) => log.error("publish queue stopped", err));
const app = createApp(deps);
const server = Deno.serve({
  hostname: config.address,
  port: config.port,
  onListen: ({ hostname, port }) =>
    log.info(
      `listening on http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}${config.baseUrl}/`,
    ),
  onError: onServeError,
}, app.fetch);

// Abandoned partial uploads are removed after --upload-expiry; check every 15 minutes (and once at start).
const sweep = () => cleanupUploads(deps).catch((err) => log.error("upload cleanup failed", err));
const sweeper = setInterval(sweep, 15 * 60_000);
sweep();

for (const sig of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(sig, async () => {
    clearInterval(sweeper);
    await server.shutdown();
    await deps.listings?.close();
    await deps.folderSizes?.close();
    // Let other instances (or the next start) take over uploads this process was holding at once.
    await releaseParkedLeases(deps.kv).catch(() => {});
    deps.kv.close();
    Deno.exit(0);
  });
}
