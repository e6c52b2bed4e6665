/**
 * Crash safety: the real server is killed with SIGKILL in the middle of a large save and of a large move,
 * and the old data must be intact (writes are atomic; moves remove the source only after the copy).
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";

const ROOT = new URL("../..", import.meta.url).pathname;
const PASSWORD = "kill-test-password-123";
const MIB = 1024 * 1024;

interface Server {
  port: number;
  child: Deno.ChildProcess;
  token: string;
}

async function startServer(dir: string): Promise<Server> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "main.ts",
      "--port",
      "0",
      "--root",
      `${dir}/root`,
      "--database",
      `${dir}/kv`,
      "--cache-dir",
      `${dir}/cache`,
    ],
    cwd: ROOT,
    env: { FB_ADMIN_PASSWORD: PASSWORD },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let log = "";
  let port = 0;
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const errors = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  (async () => {
    for (;;) {
      const { value, done } = await errors.read();
      if (done) return;
      log += value;
    }
  })();
  // If the server never says it listens, kill it so the read below ends.
  const watchdog = setTimeout(() => child.kill("SIGKILL"), 60_000);
  while (!port) {
    const { value, done } = await lines.read();
    if (done) break;
    log += value;
    port = Number(log.match(/listening on http:\/\/[^:]+:(\d+)\//)?.[1] ?? 0);
  }
  clearTimeout(watchdog);
  assert.ok(port, `server did not start:\n${log}`);
  // Keep draining stdout so the child never blocks on a full pipe.
  (async () => {
    while (!(await lines.read()).done);
  })();
  const login = await fetch(`http://127.0.0.1:${port}/api/login`, {
    method: "POST",
    body: JSON.stringify({ username: "admin", password: PASSWORD }),
  });
  assert.equal(login.status, 200, await login.clone().text());
  return { port, child, token: await login.text() };
}

async function kill(server: Server): Promise<void> {
  server.child.kill("SIGKILL");
  await server.child.status;
}

function sha(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function pattern(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i += 65536) crypto.getRandomValues(out.subarray(i, Math.min(size, i + 65536)));
  out[0] = seed;
  return out;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 2));
  }
  return false;
}

async function tempFiles(dir: string): Promise<{ name: string; size: number }[]> {
  const out = [];
  for await (const e of Deno.readDir(dir)) {
    if (!e.name.startsWith(".fb-tmp-")) continue;
    try {
      out.push({ name: e.name, size: (await Deno.stat(`${dir}/${e.name}`)).size });
    } catch {
      // Renamed away meanwhile.
    }
  }
  return out;
}

Deno.test({
  name: "a server killed during a large PUT keeps the old file intact",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "fbkill-" });
    await Deno.mkdir(`${dir}/root`);
    const old = pattern(4 * MIB, 1);
    await Deno.writeFile(`${dir}/root/big.bin`, old);
    const server = await startServer(dir);
    try {
      const chunk = pattern(MIB, 2);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          // Slow enough for the test to see the temp file grow; 1 GiB would take minutes.
          if (sent >= 1024) return c.close();
          sent++;
          c.enqueue(chunk);
          await new Promise((r) => setTimeout(r, 5));
        },
      });
      const put = fetch(`http://127.0.0.1:${server.port}/api/resources/big.bin`, {
        method: "PUT",
        headers: { "X-Auth": server.token },
        body,
        duplex: "half",
      } as RequestInit).catch((err) => err);
      const midway = await waitFor(
        async () => (await tempFiles(`${dir}/root`)).some((t) => t.size >= 16 * MIB),
        30_000,
      );
      assert.ok(midway, "the save started writing its temp file");
      await kill(server);
      await put;
      assert.ok(sent < 1024, "killed before the body was complete");
      const now = await Deno.readFile(`${dir}/root/big.bin`);
      assert.equal(now.length, old.length);
      assert.equal(sha(now), sha(old), "the old content survived");
    } finally {
      await kill(server).catch(() => {});
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a server killed during a large merge move keeps the source and whole files at the destination",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "fbkill-" });
    const files = 80;
    await Deno.mkdir(`${dir}/root/src`, { recursive: true });
    await Deno.mkdir(`${dir}/root/dst`, { recursive: true });
    const sums = new Map<string, string>();
    for (let i = 0; i < files; i++) {
      const data = pattern(2 * MIB, i);
      await Deno.writeFile(`${dir}/root/src/f${i}.bin`, data);
      sums.set(`f${i}.bin`, sha(data));
    }
    const oldDst = pattern(MIB, 200);
    for (let i = 0; i < files; i += 10) await Deno.writeFile(`${dir}/root/dst/f${i}.bin`, oldDst);
    const server = await startServer(dir);
    try {
      // dst exists and is not empty: rename(2) fails with ENOTEMPTY and the move merges by copying.
      const move = fetch(
        `http://127.0.0.1:${server.port}/api/resources/src?action=rename&destination=%252Fdst&override=true`,
        { method: "PATCH", headers: { "X-Auth": server.token } },
      ).catch((err) => err);
      const countNew = async () => {
        let n = 0;
        for await (const e of Deno.readDir(`${dir}/root/dst`)) if (e.name.endsWith(".bin")) n++;
        return n;
      };
      const midway = await waitFor(async () => (await countNew()) >= files / 10 + 8, 60_000);
      assert.ok(midway, "the merge started");
      await kill(server);
      const result = await move;
      if (result instanceof Response) await result.body?.cancel();
      const copied = await countNew();
      assert.ok(copied < files, `killed mid-way (${copied}/${files} at the destination)`);
      for (const [name, sum] of sums) {
        assert.equal(sha(await Deno.readFile(`${dir}/root/src/${name}`)), sum, `source ${name} intact`);
      }
      for await (const e of Deno.readDir(`${dir}/root/dst`)) {
        if (!e.name.endsWith(".bin")) continue;
        const got = sha(await Deno.readFile(`${dir}/root/dst/${e.name}`));
        assert.ok(got === sums.get(e.name) || got === sha(oldDst), `${e.name} is whole (old or new)`);
      }
    } finally {
      await kill(server).catch(() => {});
      await Deno.remove(dir, { recursive: true });
    }
  },
});

async function canMountTmpfs(dir: string): Promise<boolean> {
  if (Deno.uid() !== 0) return false;
  await Deno.mkdir(dir, { recursive: true });
  const r = await new Deno.Command("mount", {
    args: ["-t", "tmpfs", "-o", "size=512m", "tmpfs", dir],
    stderr: "null",
  })
    .output().catch(() => null);
  return r?.code === 0;
}

Deno.test({
  name: "a server killed during a cross-device move keeps the source and leaves no partial destination",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const dir = await Deno.makeTempDir({ prefix: "fbkill-" });
    const mnt = `${dir}/root/mnt`;
    if (!(await canMountTmpfs(mnt))) {
      await Deno.remove(dir, { recursive: true });
      t.step({ name: "skipped: cannot mount a tmpfs here", ignore: true, fn: () => {} });
      return;
    }
    let server: Server | null = null;
    try {
      await Deno.mkdir(`${dir}/root/src`, { recursive: true });
      const sums = new Map<string, string>();
      for (let i = 0; i < 60; i++) {
        const data = pattern(4 * MIB, i);
        await Deno.writeFile(`${dir}/root/src/f${i}.bin`, data);
        sums.set(`f${i}.bin`, sha(data));
      }
      server = await startServer(dir);
      const move = fetch(
        `http://127.0.0.1:${server.port}/api/resources/src?action=rename&destination=%252Fmnt%252Fsrc`,
        { method: "PATCH", headers: { "X-Auth": server.token } },
      ).catch((err) => err);
      const midway = await waitFor(async () => {
        const temps = await tempFiles(mnt);
        if (!temps.length) return false;
        let n = 0;
        for await (const _ of Deno.readDir(`${mnt}/${temps[0].name}`)) n++;
        return n >= 8;
      }, 60_000);
      assert.ok(midway, "the cross-device copy started");
      await kill(server);
      const result = await move;
      if (result instanceof Response) await result.body?.cancel();
      assert.equal(
        (await Array.fromAsync(Deno.readDir(mnt))).some((e) => e.name === "src"),
        false,
        "no partial destination",
      );
      for (const [name, sum] of sums) {
        assert.equal(sha(await Deno.readFile(`${dir}/root/src/${name}`)), sum, `source ${name} intact`);
      }
    } finally {
      if (server) await kill(server).catch(() => {});
      await new Deno.Command("umount", { args: [mnt] }).output().catch(() => null);
      await Deno.remove(dir, { recursive: true });
    }
  },
});
