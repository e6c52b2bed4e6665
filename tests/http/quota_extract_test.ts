/**
 * Extraction is held to the quota: the declared sizes at the start (507 before anything is written) and the
 * written bytes while it runs, so parallel extractions never end above the quota either.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "../_helpers.ts";
import { tarOf } from "../../lib/extract/_testing.ts";
import type { ExtractEvent } from "../../lib/types.ts";

const PERM = { create: true, modify: true, delete: true, download: true };
const TAR = tarOf([{ name: "a.bin", data: "a".repeat(30) }, { name: "b.bin", data: "b".repeat(30) }]);

/** Alice's quota leaves `room` bytes beside two copies of the 60-byte tar. */
async function quotaApp(room: number): Promise<TestApp> {
  const quota = 2 * TAR.length + room;
  const t = await testApp({ users: [{ username: "alice", scope: "/alice", perm: PERM, quota }] });
  await Deno.writeFile(`${t.root}/alice/one.tar`, TAR);
  await Deno.writeFile(`${t.root}/alice/two.tar`, TAR);
  return t;
}

async function bytesUnder(dir: string): Promise<number> {
  let total = 0;
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) total += await bytesUnder(path);
    else if (e.isFile) total += (await Deno.stat(path)).size;
  }
  return total;
}

function lastEvent(text: string): ExtractEvent {
  const lines = text.trim().split("\n");
  return JSON.parse(lines[lines.length - 1]);
}

Deno.test("extract: the declared sizes must fit the quota (exactly full is fine)", async () => {
  const t = await quotaApp(60);
  try {
    const fits = await t.request("/api/extract/one.tar?destination=/x", { method: "POST", as: "alice" });
    assert.equal(fits.status, 200);
    assert.equal(lastEvent(await fits.text()).type, "done");
    const over = await t.request("/api/extract/two.tar?destination=/y", { method: "POST", as: "alice" });
    assert.equal(over.status, 507);
    assert.match(await over.text(), /quota/);
    assert.equal(await bytesUnder(`${t.root}/alice`), 2 * TAR.length + 60);
  } finally {
    await t.close();
  }
});

Deno.test("extract: parallel extractions never end above the quota", async () => {
  const t = await quotaApp(90);
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, t.app.fetch);
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const results = await Promise.all(["one", "two", "one", "two"].map(async (name, i) => {
      const res = await fetch(`${base}/api/extract/${name}.tar?destination=/out${i}`, {
        method: "POST",
        headers: { "X-Auth": t.tokens.alice },
      });
      const text = await res.text();
      return res.status === 200 ? lastEvent(text) : { type: "refused", status: res.status };
    }));
    const done = results.filter((r) => r.type === "done").length;
    assert.ok(done >= 1, JSON.stringify(results));
    for (const r of results) {
      if (r.type === "done") continue;
      assert.equal("status" in r ? r.status : 0, 507, JSON.stringify(results));
    }
    assert.ok(await bytesUnder(`${t.root}/alice`) <= 2 * TAR.length + 90);
  } finally {
    await server.shutdown();
    await t.close();
  }
});
