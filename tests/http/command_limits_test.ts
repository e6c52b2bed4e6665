/**
 * Limits that hold for every confined command (docs/commands.md#limits), through the real app: memory, `/dev` and
 * `/dev/shm`, descriptors, and quotas (users with one cannot run commands; what a hook writes is counted).
 */
import assert from "node:assert/strict";
import type { TestUserSpec } from "../_helpers.ts";
import { eventually, exists, runLine, serveApp } from "./_command.ts";
import type { ServedApp } from "./_command.ts";
import type { Config } from "../../config.ts";
import { findCgroups } from "../../lib/runner/cgroup.ts";

const ALICE: TestUserSpec = {
  username: "alice",
  perm: { execute: true, create: true, modify: true },
  scope: "/alice",
  commands: ["sh", "ls", "python3", "cat"],
};

async function withApp(
  options: { config?: Partial<Config>; users?: TestUserSpec[]; settings?: Record<string, unknown> },
  fn: (app: ServedApp, scope: string) => Promise<void>,
) {
  const app = await serveApp({
    config: { enableExec: true, ...options.config },
    users: options.users ?? [ALICE],
    settings: options.settings as never,
  });
  try {
    await fn(app, await Deno.realPath(`${app.t.root}/alice`));
  } finally {
    await app.close();
  }
}

function failed(r: { reason: string; lines: string[] }, what: string) {
  assert.match(r.reason, /^exit [1-9]\d*$/, `${what}: ${r.reason} ${r.lines.join("\n")}`);
}

Deno.test("limits: a command cannot allocate 2 GiB (the default cap is 1 GiB)", async () => {
  await withApp({}, async (app) => {
    // Untouched (calloc) and touched pages alike.
    for (const line of [`python3 -c "b = bytearray(2 << 30)"`, `python3 -c "b = b'x' * (2 << 30)"`]) {
      failed(await runLine(app, "/", line, { as: "alice" }), line);
    }
    // Ordinary work fits.
    const r = await runLine(app, "/", `python3 -c "b = b'x' * (64 << 20); print(len(b))"`, { as: "alice" });
    assert.deepEqual(r.lines, [String(64 << 20)]);
  });
});

Deno.test("limits: the memory of all a command's processes together is capped (memory cgroup)", async () => {
  await withApp({ config: { execMaxMemory: 256 * 1024 * 1024 } }, async (app) => {
    // Where the host gives no memory cgroup, RLIMIT_DATA per process is the only memory limit.
    if ((await findCgroups()).memory === null) return;
    assert.equal(app.t.deps.exec?.sandbox?.memoryLimit, "cgroup");
    // Four processes of 100 MiB each (touched) stay under the per-process cap but not under the command's.
    const each = "import time; b = bytes(range(256)) * 409600; time.sleep(2); print(42)";
    const line = `sh -c 'for i in 1 2 3 4; do python3 -c "${each}" & done; wait'`;
    const r = await runLine(app, "/", line, { as: "alice" });
    const kept = r.lines.filter((l) => l === "42").length;
    assert.ok(kept >= 1 && kept < 4, r.lines.join("\n"));
  });
});

Deno.test("limits: /dev is read-only and /dev/shm holds at most a few MiB", async () => {
  await withApp({}, async (app) => {
    const shm = `sh -c 'head -c 1G /dev/zero > /dev/shm/fill'`;
    failed(await runLine(app, "/", shm, { as: "alice" }), shm);
    const dev = `sh -c 'echo x > /dev/planted'`;
    const r = await runLine(app, "/", dev, { as: "alice" });
    failed(r, dev);
    assert.ok(r.lines.some((l) => /Read-only file system/.test(l)), r.lines.join("\n"));
    // Devices still work, and /dev/shm exists for what needs a little shared memory.
    const ok = await runLine(
      app,
      "/",
      `sh -c 'echo x > /dev/null && echo y > /dev/shm/s && cat /dev/shm/s'`,
      {
        as: "alice",
      },
    );
    assert.deepEqual([ok.reason, ok.lines], ["exit 0", ["y"]]);
  });
});

/** Opens `path` with libc and no O_CLOEXEC (as an inherited descriptor or a native library's would be). */
function openInheritable(path: string): { fd: number; close(): void } {
  const lib = Deno.dlopen("libc.so.6", {
    open: { parameters: ["buffer", "i32"], result: "i32" },
    close: { parameters: ["i32"], result: "i32" },
  });
  const fd = lib.symbols.open(new TextEncoder().encode(path + "\0"), 0);
  assert.ok(fd > 2, `open ${path}`);
  return {
    fd,
    close() {
      lib.symbols.close(fd);
      lib.close();
    },
  };
}

Deno.test("limits: a command sees descriptors 0, 1 and 2 only, not the server's", async () => {
  await withApp({}, async (app) => {
    await Deno.mkdir(`${app.t.root}/bob`);
    await Deno.writeTextFile(`${app.t.root}/bob/x`, "bob's secret");
    const leaked = openInheritable(`${app.t.root}/bob/x`);
    try {
      // ls opens the listing itself as descriptor 3.
      let r = await runLine(app, "/", "ls /proc/self/fd", { as: "alice" });
      assert.deepEqual(r.lines, ["0", "1", "2", "3"]);
      r = await runLine(app, "/", `cat /proc/self/fd/${leaked.fd}`, { as: "alice" });
      failed(r, "cat a descriptor of the server");
      assert.ok(!r.lines.join("\n").includes("secret"), r.lines.join("\n"));
    } finally {
      leaked.close();
    }
  });
});

Deno.test("limits: a user with a quota cannot run commands (a fill past the quota is refused)", async () => {
  const users = [{ ...ALICE, quota: 1024 * 1024 }, { ...ALICE, username: "free", scope: "/free" }];
  await withApp({ users }, async (app, scope) => {
    const fill = `sh -c 'head -c 5M /dev/zero > fill'`;
    const r = await runLine(app, "/", fill, { as: "alice" });
    assert.deepEqual([r.code, r.reason, r.lines], [4403, "not allowed: quota", ["Command not allowed."]]);
    assert.equal(await exists(`${scope}/fill`), false);
    // The same line runs for a user without a quota.
    const free = await runLine(app, "/", fill, { as: "free" });
    assert.equal(free.reason, "exit 0");
  });
});

Deno.test("limits: a user with hidden dotfiles cannot run commands", async () => {
  const users = [{ ...ALICE, hideDotfiles: true }];
  await withApp({ users }, async (app, scope) => {
    await Deno.writeTextFile(`${scope}/.secret`, "dot");
    const r = await runLine(app, "/", "cat .secret", { as: "alice" });
    assert.deepEqual([r.code, r.reason, r.lines], [4403, "not allowed: hidden files", [
      "Command not allowed.",
    ]]);
  });
});

Deno.test("limits: what a background hook writes counts against the quota once it ends", async () => {
  const hook = `sh -c 'sleep 1; head -c 2M /dev/zero > "$HOME/filled"; touch "$HOME/done"' &`;
  const users = [{ ...ALICE, quota: 1024 * 1024 }];
  await withApp({ users, settings: { commands: { after_upload: [hook] } } }, async (app, scope) => {
    const up = await app.t.request("/api/resources/a.txt", { method: "POST", as: "alice", body: "a" });
    assert.equal(up.status, 200);
    await up.body?.cancel();
    // Read (and so cached) before the hook writes.
    const used = async () => {
      const res = await app.t.request("/api/usage/", { as: "alice" });
      return (await res.json() as { used: number }).used;
    };
    assert.ok(await used() < 1024 * 1024);
    assert.ok(await eventually(() => exists(`${scope}/done`), 20_000), "the hook ran");
    assert.ok(await eventually(async () => await used() >= 2 * 1024 * 1024, 10_000), "usage was recounted");
    const over = await app.t.request("/api/resources/b.txt", { method: "POST", as: "alice", body: "b" });
    assert.equal(over.status, 507);
    await over.body?.cancel();
  });
});
