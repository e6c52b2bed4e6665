/**
 * tus uploads belong to their user, over a real port with two users sharing one scope: another user can
 * neither see, continue nor terminate an upload (404), cannot hold a path longer than the owner's lease, and
 * of parallel creations on separate connections exactly one wins.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "../_helpers.ts";

const TUS_CT = "application/offset+octet-stream";
const PERM = { create: true, modify: true, delete: true, download: true };

interface World {
  t: TestApp;
  url: string;
  /** Fake time added to the real clock (the upload lease is measured with deps.now). */
  clock: { skew: number };
  uploads: string;
  close(): Promise<void>;
}

async function world(): Promise<World> {
  const t = await testApp({
    users: [{ username: "alice", perm: PERM, scope: "/shared" }, {
      username: "bob",
      perm: PERM,
      scope: "/shared",
    }],
  });
  const clock = { skew: 0 };
  t.deps.now = () => Date.now() + clock.skew;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, t.app.fetch);
  return {
    t,
    url: `http://127.0.0.1:${server.addr.port}`,
    clock,
    uploads: `${t.dir}/uploads`,
    async close() {
      await server.shutdown();
      await t.close();
    },
  };
}

/** One tus request on its own connection; returns the status and the Upload-Offset header. */
async function tus(
  w: World,
  as: string,
  method: string,
  path: string,
  init: { length?: number; offset?: number; body?: string } = {},
): Promise<{ status: number; offset: string | null }> {
  const headers: Record<string, string> = { "X-Auth": w.t.tokens[as] };
  if (init.length !== undefined) headers["Upload-Length"] = String(init.length);
  if (init.offset !== undefined) {
    headers["Upload-Offset"] = String(init.offset);
    headers["Content-Type"] = TUS_CT;
  }
  // A client per request: parallel requests really travel on parallel connections.
  const client = Deno.createHttpClient({});
  try {
    const query = method === "POST" ? "?override=false" : "";
    const r = await fetch(`${w.url}/api/tus${path}${query}`, { method, headers, body: init.body, client });
    await r.body?.cancel();
    return { status: r.status, offset: r.headers.get("Upload-Offset") };
  } finally {
    client.close();
  }
}

async function stagingFiles(w: World): Promise<number> {
  return (await Array.fromAsync(Deno.readDir(w.uploads))).length;
}

Deno.test("another user's HEAD, GET, PATCH and DELETE of an upload are 404 and change nothing", async () => {
  const w = await world();
  try {
    assert.equal((await tus(w, "alice", "POST", "/a.bin", { length: 6 })).status, 201);
    assert.equal((await tus(w, "alice", "PATCH", "/a.bin", { offset: 0, body: "abc" })).status, 204);
    for (const method of ["HEAD", "GET", "DELETE"]) {
      assert.equal((await tus(w, "bob", method, "/a.bin")).status, 404, method);
    }
    assert.equal((await tus(w, "bob", "PATCH", "/a.bin", { offset: 3, body: "XYZ" })).status, 404);
    assert.equal((await tus(w, "alice", "HEAD", "/a.bin")).offset, "3", "bob's bytes never landed");
    assert.equal((await tus(w, "alice", "PATCH", "/a.bin", { offset: 3, body: "def" })).status, 204);
    assert.equal(await Deno.readTextFile(`${w.t.root}/shared/a.bin`), "abcdef");
  } finally {
    await w.close();
  }
});

Deno.test("another user's POST is refused while the owner's lease lives and takes a stale upload over", async () => {
  const w = await world();
  try {
    assert.equal((await tus(w, "alice", "POST", "/held.bin", { length: 4 })).status, 201);
    assert.equal((await tus(w, "bob", "POST", "/held.bin", { length: 2 })).status, 409);
    // A chunk renews the owner's lease.
    w.clock.skew += 8_000;
    assert.equal((await tus(w, "alice", "PATCH", "/held.bin", { offset: 0, body: "ab" })).status, 204);
    w.clock.skew += 8_000;
    assert.equal(
      (await tus(w, "bob", "POST", "/held.bin", { length: 2 })).status,
      409,
      "renewed by the chunk",
    );
    // Idle for longer than the lease (10 s), far less than the upload expiry (24 h): bob takes the path.
    w.clock.skew += 11_000;
    assert.equal((await tus(w, "bob", "POST", "/held.bin", { length: 2 })).status, 201);
    assert.equal((await tus(w, "alice", "HEAD", "/held.bin")).status, 404);
    assert.equal((await tus(w, "alice", "PATCH", "/held.bin", { offset: 2, body: "cd" })).status, 404);
    assert.equal(await stagingFiles(w), 1, "alice's staging data is gone");
    assert.equal((await tus(w, "bob", "PATCH", "/held.bin", { offset: 0, body: "BO" })).status, 204);
    assert.equal(await Deno.readTextFile(`${w.t.root}/shared/held.bin`), "BO");
  } finally {
    await w.close();
  }
});

/** Races POSTs to `path` (one connection each) and checks that one user, and only one, owns the upload. */
async function race(w: World, path: string, who: string[], label: string): Promise<string[]> {
  const results = await Promise.all(who.map((as) => tus(w, as, "POST", path, { length: 2 })));
  const statuses = results.map((r) => r.status).join(",");
  for (const r of results) assert.ok([201, 409, 423].includes(r.status), `${label}: ${statuses}`);
  // A user's second POST restarts that user's own upload (201 again); the other user only ever loses.
  const winners = [...new Set(who.filter((_, i) => results[i].status === 201))];
  assert.equal(winners.length, 1, `${label}: one user wins (${statuses})`);
  const loser = winners[0] === "alice" ? "bob" : "alice";
  assert.equal((await tus(w, winners[0], "HEAD", path)).status, 200, label);
  assert.equal((await tus(w, loser, "HEAD", path)).status, 404, label);
  assert.equal((await tus(w, winners[0], "PATCH", path, { offset: 0, body: "ok" })).status, 204, label);
  assert.equal(await Deno.readTextFile(`${w.t.root}/shared${path}`), "ok", label);
  assert.equal(await stagingFiles(w), 0, `${label}: no staging file left behind`);
  return who.filter((_, i) => results[i].status === 201);
}

Deno.test("parallel creations by two users on separate connections: exactly one wins", async () => {
  const w = await world();
  try {
    for (let round = 0; round < 6; round++) {
      const stale = round % 2 === 1;
      const path = `/pair-${round}.bin`;
      if (stale) {
        // Odd rounds race for a stale upload of alice's instead of a fresh path.
        assert.equal((await tus(w, "alice", "POST", path, { length: 3 })).status, 201);
        w.clock.skew += 11_000;
      }
      const won = await race(w, path, round % 4 < 2 ? ["alice", "bob"] : ["bob", "alice"], `pair ${round}`);
      assert.equal(won.length, 1, `pair ${round}: exactly one 201`);
    }
    for (const stale of [false, true]) {
      const path = `/crowd-${stale}.bin`;
      if (stale) {
        assert.equal((await tus(w, "alice", "POST", path, { length: 3 })).status, 201);
        w.clock.skew += 11_000;
      }
      await race(w, path, ["alice", "bob", "bob", "alice", "bob", "alice", "bob", "alice"], `crowd ${stale}`);
    }
  } finally {
    await w.close();
  }
});

Deno.test("a failed second creation by the owner leaves the owner's lease in place", async () => {
  const w = await world();
  try {
    assert.equal((await tus(w, "alice", "POST", "/kept.bin", { length: 4 })).status, 201);
    // alice's restart of the same upload is refused by a before hook after it took the parked lease.
    w.t.deps.hooks = {
      before: () => Promise.reject(new Error("refused by the hook")),
      after: () => Promise.resolve(),
    };
    assert.equal((await tus(w, "alice", "POST", "/kept.bin", { length: 4 })).status, 500);
    w.t.deps.hooks = { before: () => Promise.resolve(), after: () => Promise.resolve() };
    // The lease still protects alice's first upload: bob cannot take the path over before it runs out.
    assert.equal((await tus(w, "bob", "POST", "/kept.bin", { length: 2 })).status, 409);
    assert.equal((await tus(w, "alice", "PATCH", "/kept.bin", { offset: 0, body: "abcd" })).status, 204);
    assert.equal(await Deno.readTextFile(`${w.t.root}/shared/kept.bin`), "abcd");
  } finally {
    await w.close();
  }
});
