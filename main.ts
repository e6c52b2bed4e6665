/**
 * Boot: loadConfig() → checks that write nothing (folders, first admin) → bind the port → open KV, first-start setup
 * → createApp(deps) serves. A start-up failure is one line naming the flag, and exit code 2.
 */
import { helpText, loadConfig } from "./config.ts";
import { createApp } from "./app.ts";
import { ensureBuilt } from "./framework/build.ts";
import { log, setLogLevel } from "./lib/log.ts";
import { bootDeps, checkStartup } from "./lib/boot.ts";
import { onServeError } from "./lib/serve_error.ts";
import { startPublishing } from "./lib/publish/mod.ts";
import { cleanupUploads, releaseParkedLeases } from "./lib/upload/mod.ts";
import { FolderSizeCache } from "./lib/fs/folder_size_cache.ts";
import { ListingCache } from "./lib/fs/listing_cache.ts";
import { SearchIndex } from "./lib/search/index/mod.ts";
import { purgeTrash } from "./lib/trash/mod.ts";
import { purgeAudit } from "./lib/audit/mod.ts";

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

function fail(err: unknown): never {
  log.error((err as Error).message.split("\n")[0]);
  log.debug("start-up failure", err);
  Deno.exit(2);
}

await checkStartup(config).catch(fail);
// Bind before anything is written: a port in use must not leave a half-made first start behind. Until the app is
// ready, requests get 503.
let handler: Deno.ServeHandler<Deno.NetAddr> = () =>
  new Response("503 Service Unavailable\n", { status: 503, headers: { "Retry-After": "1" } });
let server: Deno.HttpServer<Deno.NetAddr>;
try {
  server = Deno.serve(
    { hostname: config.address, port: config.port, onListen() {}, onError: onServeError },
    (req, info) => handler(req, info),
  );
} catch (err) {
  fail(
    new Error(
      `Cannot listen on --address ${config.address} --port ${config.port}: ${(err as Error).message}`,
    ),
  );
}
// Started by start.ts from the server bundle, the build was checked there already (and its manifest is the one
// bundled); started from source (tests, `deno run main.ts`), check it here.
if (!import.meta.url.endsWith("/_build/server.js")) await ensureBuilt();
// With --enable-exec, a sandbox that cannot be set up fails here too (ExecUnavailableError), before any write.
const { deps, firstStart, warnings, imported } = await bootDeps(config).catch(fail);
for (const w of warnings) log.warn(w);
for (const line of imported) log.info(`import-filebrowser: ${line}`);
if (firstStart.password) {
  // Printed whatever --log-level says: it is shown only this once, and without it nobody can log in.
  // deno-lint-ignore no-console -- the one-time admin password must not go through the level filter
  console.log(
    `first start: admin user "${config.adminUsername}" created with password: ${firstStart.password}\n` +
      "this password is shown only once; change it under Settings > Profile (or: deno task users update)",
  );
}
// Directory listings are cached in memory and invalidated by file-system events (lib/fs/listing_cache.ts).
deps.listings = new ListingCache();
// Search answers from a filename index once its background walk is done (lib/search/index/); walks until then.
// It is saved to config.searchSnapshot on close and loaded from it at start, so a restart is warm.
deps.searchIndex = new SearchIndex(config.root, { snapshot: config.searchSnapshot });
deps.searchIndex.start().catch((err) => log.error("search index unavailable; searches walk the disk", err));
// Folder sizes are cached until a recursive watcher sees a change (lib/fs/folder_size_cache.ts).
deps.folderSizes = new FolderSizeCache();
// Due publish schedules arrive through the KV queue; the listener ends when KV is closed.
startPublishing(deps).catch((err) => log.error("publish queue stopped", err));
const app = createApp(deps);
handler = (req, info) => app.fetch(req, info);
{
  const { hostname, port } = server.addr;
  log.info(
    `listening on http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}${config.baseUrl}/`,
  );
}

// Abandoned partial uploads are removed after --upload-expiry; check every 15 minutes (and once at start).
const sweep = () => cleanupUploads(deps).catch((err) => log.error("upload cleanup failed", err));
const sweeper = setInterval(sweep, 15 * 60_000);
sweep();
// Trashed items older than --trash-days are removed for good; check every hour (and once at start).
const purge = () => purgeTrash(deps).catch((err) => log.error("trash purge failed", err));
const purger = setInterval(purge, 60 * 60_000);
purge();

// Audit entries older than --audit-days are removed; check every hour (and once at start).
const auditPurge = () => purgeAudit(deps).catch((err) => log.error("audit purge failed", err));
const auditPurger = setInterval(auditPurge, 60 * 60_000);
auditPurge();

for (const sig of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(sig, async () => {
    clearInterval(sweeper);
    clearInterval(purger);
    clearInterval(auditPurger);
    await server.shutdown();
    await deps.listings?.close();
    await deps.searchIndex?.close();
    await deps.cache?.close();
    await deps.folderSizes?.close();
    // Let other instances (or the next start) take over uploads this process was holding at once.
    await releaseParkedLeases(deps.leases).catch(() => {});
    deps.kv.close();
    Deno.exit(0);
  });
}
