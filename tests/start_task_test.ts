import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

/** The `--v8-flags` of a command line, in order ([] without the option). */
function v8FlagsOf(command: string): string[] {
  const flags = command.match(/--v8-flags=(\S+)/)?.[1];
  return flags ? flags.split(",") : [];
}

const startTask: string = JSON.parse(Deno.readTextFileSync(new URL("deno.json", ROOT))).tasks.start;
const configuration = Deno.readTextFileSync(new URL("docs/configuration.md", ROOT));

Deno.test("the start task's V8 flags are the ones docs/configuration.md names under Running", () => {
  const running = configuration.slice(configuration.indexOf("\n## Running\n"));
  assert.ok(running.length > 12, "docs/configuration.md has a Running section");
  const documented = running.match(/`deno run -A --v8-flags=(\S+) start\.ts`/)?.[1];
  assert.ok(documented, "the Running section quotes the start task's command");
  assert.deepEqual(v8FlagsOf(startTask), documented.split(","));
  assert.match(startTask, /^deno run -A --v8-flags=\S+ start\.ts$/);
});

Deno.test("the start task exposes gc() (young collections, memory release) and keeps V8's young generation", () => {
  const flags = v8FlagsOf(startTask);
  assert.ok(flags.includes("--expose-gc"), `flags: ${flags.join(",")}`);
  // Issue #14: the loops that make much garbage ask for collections (lib/young_gc.ts) instead.
  assert.ok(!flags.some((f) => f.startsWith("--max-semi-space-size")), `flags: ${flags.join(",")}`);
});

Deno.test("v8FlagsOf() reads the comma-separated list of --v8-flags", () => {
  assert.deepEqual(v8FlagsOf("deno run -A --v8-flags=--a=1,--b start.ts"), ["--a=1", "--b"]);
  assert.deepEqual(v8FlagsOf("deno run -A start.ts"), []);
});

Deno.test("the project's config makes request.signal abort only when the client leaves, not after each answer", async () => {
  // deno.json "unstable": ["no-legacy-abort"]: the legacy behaviour aborted every signal after a successful
  // response (a DOMException per request, and a warning line in the server's log).
  const unstable: string[] = JSON.parse(Deno.readTextFileSync(new URL("deno.json", ROOT))).unstable;
  assert.ok(unstable.includes("no-legacy-abort"), `unstable: ${unstable.join(",")}`);
  const seen: { signal: AbortSignal; completed: Promise<void> }[] = [];
  const ac = new AbortController();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen() {} },
    (req, info) => {
      seen.push({ signal: req.signal, completed: info.completed });
      return new Response("ok");
    },
  );
  try {
    const res = await fetch(`http://127.0.0.1:${server.addr.port}/`);
    assert.equal(await res.text(), "ok");
    await seen[0].completed;
    assert.equal(seen[0].signal.aborted, false);
  } finally {
    ac.abort();
    await server.finished;
  }
});
