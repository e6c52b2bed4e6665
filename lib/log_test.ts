import assert from "node:assert/strict";

const LOG = new URL("./log.ts", import.meta.url).href;

/** Runs a script that imports lib/log.ts as `log` in a child process; returns its stdout and stderr lines. */
async function run(body: string): Promise<{ out: string[]; err: string[] }> {
  const script = `import { log, flushLog } from ${JSON.stringify(LOG)};\n${body}`;
  const res = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", script],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const lines = (b: Uint8Array) =>
    new TextDecoder().decode(b).split("\n").filter(Boolean).map((l) => l.replace(/^\S+ /, ""));
  return { out: lines(res.stdout), err: lines(res.stderr) };
}

Deno.test("log: plain lines of one turn are all written, in order, also when the process exits right after", async () => {
  const { out, err } = await run(`
    for (let i = 0; i < 5; i++) log.info("line " + i);
    log.warn("a warning");
    log.info("after the warning");
    await Promise.resolve();
    log.debug("hidden at the default level");
    log.info("last");
    Deno.exit(0);
  `);
  assert.deepEqual(out, [
    "INFO  line 0",
    "INFO  line 1",
    "INFO  line 2",
    "INFO  line 3",
    "INFO  line 4",
    "INFO  after the warning",
    "INFO  last",
  ]);
  assert.deepEqual(err, ["WARN  a warning"]);
});

Deno.test("log: buffered lines go out before a console line with details", async () => {
  const { out } = await run(`
    log.info("first");
    log.info("with details", { n: 1 });
    flushLog();
  `);
  assert.deepEqual(out, ["INFO  first", "INFO  with details { n: 1 }"]);
});
