import assert from "node:assert/strict";
import { commandEnv, type ExecEnv, MAX_LINE, runCommand } from "./run.ts";
import { probeSandbox } from "./sandbox.ts";

const LIMITS = {
  timeoutMs: 10_000,
  maxProcesses: 32,
  maxMemory: 1024 ** 3,
  maxLines: 1000,
  maxBytes: 1_000_000,
};
const UNCONFINED: ExecEnv = { sandbox: null, network: false, limits: LIMITS };

async function inTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "fb-run-" }));
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function sh(script: string): string[] {
  return ["sh", "-c", script];
}

Deno.test("runCommand() gives stdout, then stderr, then the exit status", async () => {
  await inTemp(async (dir) => {
    const r = await runCommand(UNCONFINED, {
      argv: sh("echo e1 >&2; echo o1; echo e2 >&2; printf 'o2\\r\\nlast'; exit 7"),
      scope: dir,
      cwd: dir,
      env: commandEnv(dir),
    });
    assert.deepEqual(r.lines, ["o1", "o2", "last", "e1", "e2"]);
    assert.equal(r.code, 7);
    assert.equal(r.stop, "exit");
  });
});

Deno.test("runCommand() passes only the given environment and working directory", async () => {
  await inTemp(async (dir) => {
    await Deno.mkdir(`${dir}/sub`);
    const r = await runCommand(UNCONFINED, {
      argv: sh("env | sort; pwd"),
      scope: dir,
      cwd: `${dir}/sub`,
      env: commandEnv(dir, { FILE: "a b" }),
    });
    assert.deepEqual(r.lines.filter((l) => !l.startsWith("PWD=")), [
      "FILE=a b",
      `HOME=${dir}`,
      "LANG=C.UTF-8",
      `PATH=${commandEnv(dir).PATH}`,
      `${dir}/sub`,
    ]);
  });
});

Deno.test("runCommand() splits overlong lines and is not blocked by a full stderr pipe", async () => {
  await inTemp(async (dir) => {
    const r = await runCommand(UNCONFINED, {
      argv: sh(
        `head -c ${MAX_LINE + 10} /dev/zero | tr '\\0' a; echo; head -c 300000 /dev/zero >&2; echo done`,
      ),
      scope: dir,
      cwd: dir,
      env: commandEnv(dir),
    });
    assert.equal(r.stop, "exit");
    assert.equal(r.lines[0].length, MAX_LINE);
    assert.equal(r.lines[1].length, 10);
    assert.equal(r.lines[2], "done");
  });
});

Deno.test("runCommand() stops at the time limit, the line cap, the byte cap and on abort", async () => {
  await inTemp(async (dir) => {
    const base = { scope: dir, cwd: dir, env: commandEnv(dir) };
    let r = await runCommand({ ...UNCONFINED, limits: { ...LIMITS, timeoutMs: 300 } }, {
      ...base,
      argv: sh("sleep 20"),
    });
    assert.equal(r.stop, "timeout");
    assert.equal(r.code, 137);
    r = await runCommand({ ...UNCONFINED, limits: { ...LIMITS, maxLines: 50 } }, { ...base, argv: ["yes"] });
    assert.equal(r.stop, "output");
    assert.equal(r.lines.length, 50);
    r = await runCommand({ ...UNCONFINED, limits: { ...LIMITS, maxBytes: 5000 } }, {
      ...base,
      argv: sh("while :; do echo 0123456789; done"),
    });
    assert.equal(r.stop, "output");
    assert.ok(r.lines.length <= 500);
    const ac = new AbortController();
    const started = runCommand(UNCONFINED, {
      ...base,
      argv: sh("(sleep 1; touch late) & echo go; wait"),
      signal: ac.signal,
      onLine: () => ac.abort(),
    });
    r = await started;
    assert.equal(r.stop, "aborted");
    await new Promise((res) => setTimeout(res, 1500));
    assert.equal(await Deno.stat(`${dir}/late`).then(() => true, () => false), false, "the whole tree died");
  });
});

Deno.test("runCommand() reports a missing program as status 127 (unconfined)", async () => {
  await inTemp(async (dir) => {
    const r = await runCommand(UNCONFINED, {
      argv: ["no-such-prog-x"],
      scope: dir,
      cwd: dir,
      env: commandEnv(dir),
    });
    assert.equal(r.code, 127);
    assert.deepEqual(r.lines, ["no-such-prog-x: command not found"]);
  });
});

Deno.test("runCommand() in the sandbox: same lines and status, and nothing outlives the command", async () => {
  const probe = await probeSandbox();
  assert.ok(probe.ok);
  await inTemp(async (dir) => {
    const exec: ExecEnv = { sandbox: probe.sandbox, network: false, limits: LIMITS };
    const r = await runCommand(exec, {
      argv: sh("echo out; echo err >&2; (sleep 1; touch late) & exit 4"),
      scope: dir,
      cwd: dir,
      env: commandEnv(dir),
    });
    assert.deepEqual(r.lines, ["out", "err"]);
    assert.equal(r.code, 4);
    await new Promise((res) => setTimeout(res, 1500));
    assert.equal(await Deno.stat(`${dir}/late`).then(() => true, () => false), false);
  });
});

Deno.test("runCommand() mounts the scope the disk floor opened: a scope swapped for a link is refused, never mounted", async () => {
  const probe = await probeSandbox();
  assert.ok(probe.ok);
  await inTemp(async (root) => {
    await Deno.mkdir(`${root}/files/alice`, { recursive: true });
    await Deno.mkdir(`${root}/outside`);
    await Deno.writeTextFile(`${root}/outside/secret`, "SECRET");
    const exec: ExecEnv = { sandbox: probe.sandbox, network: false, limits: LIMITS };
    const scope = `${root}/files/alice`;
    const run = () =>
      runCommand(exec, {
        argv: sh("ls; echo x > written"),
        scope,
        anchor: `${root}/files`,
        cwd: scope,
        env: commandEnv(scope),
      });
    const ok = await run();
    assert.equal(ok.code, 0);
    assert.equal(await Deno.readTextFile(`${scope}/written`), "x\n");
    // The scope folder swapped for a link to outside after it was checked: 403, nothing written outside.
    await Deno.rename(scope, `${scope}.real`);
    await Deno.symlink(`${root}/outside`, scope);
    await assert.rejects(run(), (err: unknown) => (err as { status?: number }).status === 403);
    assert.deepEqual((await Array.fromAsync(Deno.readDir(`${root}/outside`))).map((e) => e.name), ["secret"]);
  });
});
