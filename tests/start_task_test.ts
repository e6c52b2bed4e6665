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
