/**
 * The owner of a drop link against its visitors' names (docs/api.md#file-drop-links): while a visitor's upload
 * runs, the owner's tus upload, plain write, copy or move to that name is 409 (visitors' uploads run as the
 * owner, so it would otherwise replace theirs); once it finished the owner may replace the file as usual.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "../_helpers.ts";
import { LOCK_TTL_MS } from "../../lib/upload/lock.ts";

const TUS = { "Tus-Resumable": "1.0.0" };

async function ownerApp(): Promise<{ f: TestApp; hash: string }> {
  const f = await testApp({
    users: [{
      username: "owner",
      perm: { share: true, download: true, create: true, modify: true, rename: true, delete: true },
    }],
  });
  await Deno.mkdir(`${f.root}/inbox`);
  await Deno.writeTextFile(`${f.root}/other.txt`, "other");
  const r = await f.request("/api/share/inbox/", { method: "POST", as: "owner", body: '{"kind":"drop"}' });
  assert.equal(r.status, 200);
  return { f, hash: (await r.json()).hash };
}

async function status(f: TestApp, path: string, init: RequestInit & { as?: string }): Promise<number> {
  const r = await f.request(path, init);
  await r.body?.cancel();
  return r.status;
}

/** A visitor starts a 5-byte upload of `name`; returns its Location path. */
async function visitorStarts(f: TestApp, hash: string, name: string): Promise<string> {
  const r = await f.request(`/api/public/tus/${hash}/${name}`, {
    method: "POST",
    headers: { ...TUS, "Upload-Length": "5" },
  });
  await r.body?.cancel();
  assert.equal(r.status, 201);
  return new URL(r.headers.get("Location")!, "http://x").pathname;
}

function ownerTus(f: TestApp, name: string, override: boolean): Promise<number> {
  return status(f, `/api/tus/inbox/${name}?override=${override}`, {
    method: "POST",
    as: "owner",
    headers: { ...TUS, "Upload-Length": "3" },
  });
}

Deno.test("drop link: the owner cannot take a name a visitor is uploading to", async () => {
  const { f, hash } = await ownerApp();
  try {
    const location = await visitorStarts(f, hash, "a.txt");
    assert.equal(await ownerTus(f, "a.txt", false), 409);
    assert.equal(await ownerTus(f, "a.txt", true), 409);
    const post = (override: boolean) =>
      status(f, `/api/resources/inbox/a.txt?override=${override}`, {
        method: "POST",
        as: "owner",
        body: "own",
      });
    assert.equal(await post(false), 409);
    for (const action of ["copy", "rename"]) {
      const to = encodeURIComponent("/inbox/a.txt");
      const r = await status(f, `/api/resources/other.txt?action=${action}&destination=${to}&override=true`, {
        method: "PATCH",
        as: "owner",
      });
      assert.equal(r, 409, action);
    }
    // Nor can the owner read, continue or end it, though it runs as their user.
    const tus = (method: string, headers: Record<string, string> = {}) =>
      status(f, "/api/tus/inbox/a.txt", { method, as: "owner", headers: { ...TUS, ...headers } });
    assert.equal(await tus("HEAD"), 404);
    assert.equal(
      await tus("PATCH", { "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" }),
      404,
    );
    assert.equal(await tus("DELETE"), 404);
    // The visitor's upload is untouched and finishes.
    const patched = await status(f, location, {
      method: "PATCH",
      headers: { ...TUS, "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0" },
      body: "guest",
    });
    assert.equal(patched, 204);
    assert.equal(await Deno.readTextFile(`${f.root}/inbox/a.txt`), "guest");
    // Finished: the owner replaces it like any file, and the visitor's link does not reach the owner's upload.
    assert.equal(await post(true), 200);
    assert.equal(await Deno.readTextFile(`${f.root}/inbox/a.txt`), "own");
    assert.equal(await ownerTus(f, "a.txt", true), 201);
    assert.equal(await status(f, location, { method: "HEAD", headers: TUS }), 404);
  } finally {
    await f.close();
  }
});

Deno.test("drop link: parallel owner writes to a visitor's name all get 409", async () => {
  const { f, hash } = await ownerApp();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, f.app.fetch);
  try {
    await visitorStarts(f, hash, "b.txt");
    const base = `http://127.0.0.1:${server.addr.port}`;
    const auth = { "X-Auth": f.tokens.owner };
    const statuses = await Promise.all(Array.from({ length: 8 }, async (_, i) => {
      const r = i % 2
        ? await fetch(`${base}/api/tus/inbox/b.txt?override=true`, {
          method: "POST",
          headers: { ...auth, ...TUS, "Upload-Length": "3" },
        })
        : await fetch(`${base}/api/resources/inbox/b.txt?override=true`, {
          method: "POST",
          headers: auth,
          body: "x",
        });
      await r.body?.cancel();
      return r.status;
    }));
    assert.deepEqual(statuses, Array(8).fill(409));
    assert.equal(await Deno.lstat(`${f.root}/inbox/b.txt`).then(() => true, () => false), false);
  } finally {
    await server.shutdown();
    await f.close();
  }
});

Deno.test("drop link: an idle visitor upload holds its name for the upload lease only", async () => {
  const { f, hash } = await ownerApp();
  try {
    // The owner's tus upload takes over a name whose visitor upload has been idle past the lease.
    const first = await visitorStarts(f, hash, "idle.txt");
    assert.equal(await ownerTus(f, "idle.txt", false), 409, "held while the lease lives");
    f.deps.now = () => Date.now() + LOCK_TTL_MS + 1000;
    assert.equal(await ownerTus(f, "idle.txt", false), 201);
    const chunk = { ...TUS, "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0" };
    assert.equal(await status(f, first, { method: "PATCH", headers: chunk, body: "guest" }), 404);
    assert.equal(await status(f, first, { method: "HEAD", headers: TUS }), 404);
    assert.equal(
      await status(f, "/api/tus/inbox/idle.txt", { method: "HEAD", as: "owner", headers: TUS }),
      200,
    );

    // A plain write takes the name too; the visitor's upload then finds it taken and never replaces it.
    f.deps.now = () => Date.now();
    const second = await visitorStarts(f, hash, "plain.txt");
    const post = () =>
      status(f, "/api/resources/inbox/plain.txt", { method: "POST", as: "owner", body: "own" });
    assert.equal(await post(), 409, "held while the lease lives");
    f.deps.now = () => Date.now() + LOCK_TTL_MS + 1000;
    assert.equal(await post(), 200);
    assert.equal(await status(f, second, { method: "PATCH", headers: chunk, body: "guest" }), 409);
    assert.equal(await Deno.readTextFile(`${f.root}/inbox/plain.txt`), "own");
  } finally {
    await f.close();
  }
});
