import assert from "node:assert/strict";
import { HttpError } from "../errors.ts";
import { defaultSettings } from "../settings.ts";
import type { StoredUser } from "../types.ts";
import { createEventHooks, hookCommand } from "./hooks.ts";
import type { ExecEnv } from "./run.ts";
import { probeSandbox } from "./sandbox.ts";
import { SandboxSlots, SlotsFullError } from "./slots.ts";

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

Deno.test("hook sandboxes are capped per user and in all; the rest wait their turn and all run", async () => {
  const probe = await probeSandbox();
  assert.ok(probe.ok);
  const root = await Deno.realPath(await Deno.makeTempDir());
  try {
    const names = ["alice", "bob"];
    for (const name of names) await Deno.mkdir(`${root}/${name}/running`, { recursive: true });
    const settings = defaultSettings();
    // Each hook marks itself running for a while, then leaves a trace that it ran.
    settings.commands.before_save = [
      // (mktemp: $$ is the same in every sandbox, each has its own PID namespace.)
      `sh -c 'f=$(mktemp running/hook.XXXXXX); sleep 1.5; rm "$f"; echo >> ran'`,
    ];
    const exec: ExecEnv = {
      sandbox: probe.sandbox,
      network: false,
      limits: { timeoutMs: 60_000, maxProcesses: 16, maxMemory: 1024 ** 3, maxLines: 100, maxBytes: 10_000 },
    };
    const slots = new SandboxSlots({ perUser: 2, global: 3, maxQueued: 100 });
    const hooks = createEventHooks({
      exec,
      root,
      slots,
      store: { findSettings: () => Promise.resolve(settings) },
    });
    const ctx = (name: string, id: number) => ({
      user: { id, username: name, scope: `/${name}` } as StoredUser,
      file: `${root}/${name}/f`,
      destination: `${root}/${name}`,
    });
    const count = async (name: string) => {
      let n = 0;
      for await (const _ of Deno.readDir(`${root}/${name}/running`)) n++;
      return n;
    };
    let maxAlice = 0, maxAll = 0, done = false;
    const watch = (async () => {
      while (!done) {
        const [a, b] = [await count("alice"), await count("bob")];
        maxAlice = Math.max(maxAlice, a);
        maxAll = Math.max(maxAll, a + b);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const runs = [
      ...Array.from({ length: 5 }, () => hooks.before("save", ctx("alice", 1))),
      ...Array.from({ length: 3 }, () => hooks.before("save", ctx("bob", 2))),
    ];
    await eventuallyTrue(() => slots.running === 3 && slots.waiting === 5);
    await Promise.all(runs);
    done = true;
    await watch;
    assert.ok(maxAlice <= 2, `alice ran ${maxAlice} at once`);
    assert.ok(maxAll <= 3, `${maxAll} ran at once`);
    assert.ok(maxAll >= 2, "the watcher saw hooks run");
    assert.equal((await Deno.readTextFile(`${root}/alice/ran`)).length, 5);
    assert.equal((await Deno.readTextFile(`${root}/bob/ran`)).length, 3);
    assert.deepEqual([slots.running, slots.waiting], [0, 0]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

async function eventuallyTrue(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    assert.ok(Date.now() < end, "timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

Deno.test("SandboxSlots refuses a run when too many already wait", async () => {
  const slots = new SandboxSlots({ perUser: 1, global: 1, maxQueued: 2 });
  let release = () => {};
  const held = slots.run(1, () => new Promise<void>((r) => (release = r)));
  const waiting = [slots.run(1, () => Promise.resolve()), slots.run(2, () => Promise.resolve())];
  await assert.rejects(slots.run(3, () => Promise.resolve()), SlotsFullError);
  release();
  await Promise.all([held, ...waiting]);
  assert.deepEqual([slots.running, slots.waiting], [0, 0]);
});
