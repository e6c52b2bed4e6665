/**
 * The publishing build runs confined like a command (docs/publishing.md#the-build): the site folder is the only
 * tree it can write, nothing else of the files root or the host's secrets is visible, and it has no network
 * unless `--publish-network`.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "../_helpers.ts";
import type { Config } from "../../config.ts";
import type { PublishSchedule } from "../../lib/types.ts";

const POST = "---\ntitle: Hello\ndraft: true\n---\nBody\n";

async function withListener(fn: (port: number, accepted: () => number) => Promise<void>) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let count = 0;
  const loop = (async () => {
    for await (const conn of listener) {
      count++;
      conn.close();
    }
  })();
  try {
    await fn((listener.addr as Deno.NetAddr).port, () => count);
  } finally {
    listener.close();
    await loop.catch(() => {});
  }
}

async function withSite(build: string, config: Partial<Config>, fn: (t: TestApp) => Promise<void>) {
  const t = await testApp({
    users: [{ username: "writer", perm: { create: true, publish: true, modify: true } }],
    settings: {
      site: { enabled: true, path: "/site", contentDir: "content", build: ["sh", "-c", build] } as never,
    },
    config: { enableExec: true, ...config },
  });
  try {
    await Deno.mkdir(`${t.root}/site/content`, { recursive: true });
    await Deno.writeTextFile(`${t.root}/site/content/hello.md`, POST);
    await Deno.writeTextFile(`${t.root}/secret.txt`, "a secret of the files root");
    await Deno.mkdir(`${t.root}/bob`);
    await Deno.writeTextFile(`${t.root}/bob/x`, "bob's secret");
    await Deno.symlink(`${t.root}/bob/x`, `${t.root}/site/bob-link`);
    await fn(t);
  } finally {
    await t.close();
  }
}

/** Publishes the post now and returns the build's exit code and output. */
async function publish(t: TestApp): Promise<{ code: number | null; output: string }> {
  const res = await t.request("/api/publish/now", {
    method: "POST",
    as: "writer",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ path: "/site/content/hello.md" }),
  });
  assert.equal(res.status, 200);
  const schedule = await res.json() as PublishSchedule;
  const log = await t.request(`/api/publish/schedules/${schedule.id}/log`, { as: "writer" });
  assert.equal(log.status, 200);
  return { code: schedule.buildCode ?? null, output: (await log.json()).output };
}

Deno.test("publish build: only the site folder is visible and writable", async () => {
  const build = [
    "cat ../secret.txt",
    "cat bob-link",
    "cat /etc/shadow",
    "echo x > ../planted",
    "echo built > public.txt",
    "ls /",
  ].join("; ");
  await withSite(build, {}, async (t) => {
    const { output } = await publish(t);
    for (const leak of ["a secret of the files root", "bob's secret", "root:"]) {
      assert.ok(!output.includes(leak), output);
    }
    assert.equal(await Deno.stat(`${t.root}/planted`).then(() => true, () => false), false);
    assert.equal(await Deno.readTextFile(`${t.root}/site/public.txt`), "built\n");
    assert.ok(output.includes("cat: ../secret.txt: No such file or directory"), output);
  });
});

Deno.test("publish build: no network unless --publish-network", async () => {
  await withListener(async (port, accepted) => {
    const connect = `python3 -c "import socket; socket.create_connection(('127.0.0.1', ${port}), 5)"`;
    await withSite(connect, {}, async (t) => {
      const { code } = await publish(t);
      assert.notEqual(code, 0);
    });
    assert.equal(accepted(), 0);
    // The control: the same build reaches the listener when the admin allows it.
    await withSite(connect, { publishNetwork: true }, async (t) => {
      const { code, output } = await publish(t);
      assert.equal(code, 0, output);
    });
    assert.equal(accepted(), 1);
  });
});

Deno.test("publish build: nothing it started outlives it", async () => {
  await withSite("(sleep 1; echo late > late.txt) & echo started", {}, async (t) => {
    const { code, output } = await publish(t);
    assert.deepEqual([code, output], [0, "started\n"]);
    await new Promise((r) => setTimeout(r, 2000));
    assert.equal(await Deno.stat(`${t.root}/site/late.txt`).then(() => true, () => false), false);
  });
});

Deno.test("publish build: the memory limit of commands holds", async () => {
  await withSite(`python3 -c "b = bytearray(2 << 30)"; echo status $?`, {}, async (t) => {
    const { output } = await publish(t);
    assert.match(output, /MemoryError/);
    assert.match(output, /^status 1\n/, "stdout first, then stderr");
  });
});
