import assert from "node:assert/strict";
import { createExecEnv, execStatusOf, ExecUnavailableError } from "./mod.ts";
import type { ProbeResult, Sandbox } from "./sandbox.ts";

const CONFIG = {
  enableExec: true,
  execUnconfined: false,
  execNetwork: false,
  execTimeout: 300,
  execMaxProcesses: 64,
  execMaxMemory: 1024 ** 3,
};
const SANDBOX: Sandbox = {
  bwrap: "/usr/bin/bwrap",
  version: "bubblewrap 0.8.0",
  topLevel: [],
  processLimit: "rlimit",
  memoryLimit: "rlimit",
  prlimit: "/usr/bin/prlimit",
  cgroups: { pids: null, memory: null, version: { pids: null, memory: null } },
};
const works = (sandbox = SANDBOX) => () => Promise.resolve<ProbeResult>({ ok: true, sandbox });
const broken = () =>
  Promise.resolve<ProbeResult>({ ok: false, reason: "bubblewrap (bwrap) is not installed" });

Deno.test("createExecEnv(): exec off probes nothing and runs nothing", async () => {
  let probed = false;
  const setup = await createExecEnv({ ...CONFIG, enableExec: false }, {
    probe: () => {
      probed = true;
      return broken();
    },
  });
  assert.deepEqual(setup, { exec: null, warnings: [] });
  assert.equal(probed, false);
  assert.equal(execStatusOf(setup.exec).mode, "disabled");
});

Deno.test("createExecEnv(): a working sandbox confines, with the configured limits", async () => {
  const { exec, warnings } = await createExecEnv({ ...CONFIG, execTimeout: 90, execNetwork: true }, {
    probe: works(),
  });
  assert.equal(exec?.sandbox, SANDBOX);
  assert.equal(exec?.limits.timeoutMs, 90_000);
  assert.equal(exec?.limits.maxMemory, 1024 ** 3);
  assert.deepEqual(warnings, []);
  assert.deepEqual(execStatusOf(exec), {
    mode: "confined",
    sandbox: "bubblewrap 0.8.0",
    processLimit: "rlimit",
    memoryLimit: "rlimit",
    network: true,
  });
  const none = await createExecEnv(CONFIG, {
    probe: works({ ...SANDBOX, processLimit: "none", memoryLimit: "none" }),
  });
  assert.match(none.warnings[0], /no process limit/);
  assert.match(none.warnings[1], /no memory limit/);
});

Deno.test("createExecEnv(): without a sandbox it refuses, unless --exec-unconfined (then it warns)", async () => {
  await assert.rejects(createExecEnv(CONFIG, { probe: broken }), (err) => {
    assert.ok(err instanceof ExecUnavailableError);
    assert.match(err.message, /^--enable-exec: bubblewrap \(bwrap\) is not installed; .*--exec-unconfined/);
    assert.ok(!err.message.includes("\n"));
    return true;
  });
  const { exec, warnings } = await createExecEnv({ ...CONFIG, execUnconfined: true }, { probe: broken });
  assert.equal(exec?.sandbox, null);
  assert.match(warnings[0], /UNCONFINED/);
  assert.equal(execStatusOf(exec).mode, "unconfined");
});
