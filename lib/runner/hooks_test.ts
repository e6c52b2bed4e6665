import assert from "node:assert/strict";
import { HttpError } from "../errors.ts";
import { defaultSettings } from "../settings.ts";
import type { StoredUser } from "../types.ts";
import { createEventHooks, hookCommand } from "./hooks.ts";
import type { ExecEnv } from "./run.ts";

const VARS = { FILE: "/s/a b;$(id).txt", DESTINATION: "/s", HOME: "/s", PATH: "/usr/bin" };

Deno.test("hookCommand() splits the line, expands variables into single arguments, never in the program", () => {
  const table: [string, string[] | null, boolean][] = [
    ["cp $FILE /backup/", ["cp", "/s/a b;$(id).txt", "/backup/"], false],
    ["notify ${FILE} &", ["notify", "/s/a b;$(id).txt"], true],
    ["notify $FILE&", ["notify", "/s/a b;$(id).txt"], true],
    ["$FILE --x", ["$FILE", "--x"], false],
    ["sh -c 'echo \"$FILE\"'", ["sh", "-c", 'echo "$FILE"'], false],
    ["echo $UNSET$PATH", ["echo", "/usr/bin"], false],
    ["   ", null, false],
    ["&", null, true],
    ["# comment only", null, false],
  ];
  for (const [line, argv, background] of table) {
    const cmd = hookCommand(line, { shell: [], vars: VARS });
    assert.deepEqual(cmd?.argv ?? null, argv, line);
    if (cmd) assert.equal(cmd.background, background, line);
  }
});

Deno.test("hookCommand() with a shell hands the raw line to it, unexpanded", () => {
  const cmd = hookCommand(`cp "$FILE" /b; echo $FILE &`, { shell: ["bash", "-c"], vars: VARS });
  assert.deepEqual(cmd, { argv: ["bash", "-c", `cp "$FILE" /b; echo $FILE`], background: true });
});

Deno.test("createEventHooks() runs the lines in order and throws on the first failure", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.mkdir(`${root}/alice`);
    const log = `${root}/alice/log`;
    const settings = defaultSettings();
    settings.commands.before_save = [
      `sh -c 'echo one >> "$HOME/log"'`,
      "false",
      `sh -c 'echo two >> "$HOME/log"'`,
    ];
    settings.commands.after_save = [`sh -c 'echo "$TRIGGER $USERNAME" >> "$HOME/log"'`];
    const exec: ExecEnv = {
      sandbox: null,
      network: false,
      limits: { timeoutMs: 10_000, maxProcesses: 16, maxMemory: 1024 ** 3, maxLines: 100, maxBytes: 10_000 },
    };
    const hooks = createEventHooks({ exec, root, store: { findSettings: () => Promise.resolve(settings) } });
    const ctx = {
      user: { username: "alice", scope: "/alice" } as StoredUser,
      file: `${root}/alice/f`,
      destination: `${root}/alice`,
    };
    await assert.rejects(hooks.before("save", ctx), (e) => e instanceof HttpError && e.status === 500);
    assert.equal(await Deno.readTextFile(log), "one\n");
    await hooks.after("save", ctx);
    assert.equal(await Deno.readTextFile(log), "one\nafter_save alice\n");
    await hooks.before("delete", ctx); // no lines: nothing runs
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
