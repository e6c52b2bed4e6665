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
import { closeDeps, startBackground } from "./lib/background.ts";
import { exitOnSignals, SHUTDOWN_GRACE_MS, withinMs } from "./lib/shutdown.ts";

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
// The search index's walk, the publish queue and the periodic sweeps: only a real server runs them.
const background = startBackground(deps);
const app = createApp(deps);
handler = (req, info) => app.fetch(req, info);
{
  const { hostname, port } = server.addr;
  log.info(
    `listening on http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}${config.baseUrl}/`,
  );
}

// A stop is bounded (lib/shutdown.ts): answers still running after the grace period (a client that stopped
// reading) are cut, and whatever hangs after the deadline does not keep the process alive.
exitOnSignals(async () => {
  await background.stop();
  if (!await withinMs(server.shutdown(), SHUTDOWN_GRACE_MS)) {
    log.warn("shutdown: cutting answers still running");
  }
  await closeDeps(deps);
});
