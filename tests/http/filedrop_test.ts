/** HTTP tests of upload-only share links (docs/api.md#file-drop-links): creation, tus uploads, limits, secrecy. */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import * as tus from "tus-js-client";
import { type TestApp, testApp } from "../_helpers.ts";

const DROPPER = { share: true, download: true, create: true };
const TUS = { "Tus-Resumable": "1.0.0" };

async function status(f: TestApp, path: string, init: RequestInit & { as?: string } = {}): Promise<number> {
  const r = await f.request(path, init);
  await r.body?.cancel();
  return r.status;
}

async function makeDrop(f: TestApp, body: Record<string, unknown> = {}, as = "owner"): Promise<string> {
  const r = await f.request("/api/share/inbox/", {
    method: "POST",
    as,
    body: JSON.stringify({ kind: "drop", ...body }),
  });
  assert.equal(r.status, 200, await r.clone().text());
  const share = await r.json();
  assert.equal(share.kind, "drop");
  return share.hash;
}

/** Raw tus: POST then one PATCH; returns the final status and the Location. */
async function rawUpload(
  f: TestApp,
  hash: string,
  name: string,
  data: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; location: string | null }> {
  const bytes = new TextEncoder().encode(data);
  const created = await f.request(`/api/public/tus/${hash}/${encodeURIComponent(name)}`, {
    method: "POST",
    headers: { ...TUS, "Upload-Length": String(bytes.length), ...headers },
  });
  await created.body?.cancel();
  const location = created.headers.get("Location");
  if (created.status !== 201 || bytes.length === 0) return { status: created.status, location };
  const url = new URL(location!, "http://x");
  const patched = await f.request(url.pathname + url.search, {
    method: "PATCH",
    headers: { ...TUS, "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0", ...headers },
    body: bytes,
  });
  await patched.body?.cancel();
  return { status: patched.status, location };
}

async function dropApp(config: Record<string, unknown> = {}) {
  const f = await testApp({
    users: [
      { username: "owner", perm: DROPPER },
      { username: "nocreate", perm: { share: true, download: true } },
    ],
    config,
  });
  await Deno.mkdir(`${f.root}/inbox`);
  await Deno.writeTextFile(`${f.root}/inbox/secret.txt`, "hidden");
  return f;
}

Deno.test("drop link: needs share and create, and a folder", async () => {
  const f = await dropApp();
  try {
    const refused = await status(f, "/api/share/inbox/", {
      method: "POST",
      as: "nocreate",
      body: JSON.stringify({ kind: "drop" }),
    });
    assert.equal(refused, 403);
    const onFile = await status(f, "/api/share/inbox/secret.txt", {
      method: "POST",
      as: "owner",
      body: JSON.stringify({ kind: "drop" }),
    });
    assert.equal(onFile, 400);
    for (
      const bad of [{ kind: "other" }, { kind: "drop", maxFiles: -1 }, { kind: "drop", maxFileSize: "x" }]
    ) {
      assert.equal(
        await status(f, "/api/share/inbox/", { method: "POST", as: "owner", body: JSON.stringify(bad) }),
        400,
        JSON.stringify(bad),
      );
    }
    const hash = await makeDrop(f, { maxFiles: 3, maxFileSize: 100 });
    const list = await (await f.request("/api/shares", { as: "owner" })).json();
    assert.equal(list[0].hash, hash);
    assert.equal(list[0].maxFiles, 3);
    assert.equal(list[0].uploads, 0);
  } finally {
    await f.close();
  }
});

Deno.test("drop link: contents stay hidden, uploads never overwrite", async () => {
  const f = await dropApp();
  try {
    const hash = await makeDrop(f);
    assert.equal(await status(f, `/api/public/share/${hash}`), 404);
    assert.equal(await status(f, `/api/public/share/${hash}/secret.txt`), 404);
    assert.equal(await status(f, `/api/public/dl/${hash}/secret.txt`), 403);
    assert.equal(await status(f, `/api/public/dl/${hash}`), 403);
    const info = await (await f.request(`/api/public/tus/${hash}`)).json();
    assert.deepEqual(info, { name: "inbox", maxFileSize: 0, maxFiles: 0, remaining: null });

    const first = await rawUpload(f, hash, "secret.txt", "one");
    assert.equal(first.status, 204);
    // The Location names the upload by its id, not by the name the server picked.
    assert.match(first.location!, new RegExp(`^/api/public/tus/${hash}/[\\w-]{32}$`));
    assert.equal((await rawUpload(f, hash, "secret.txt", "two")).status, 204);
    assert.equal((await rawUpload(f, hash, "notes", "three")).status, 204);
    assert.equal((await rawUpload(f, hash, "notes", "four")).status, 204);
    assert.equal(await Deno.readTextFile(`${f.root}/inbox/secret.txt`), "hidden");
    assert.equal(await Deno.readTextFile(`${f.root}/inbox/secret (1).txt`), "one");
    assert.equal(await Deno.readTextFile(`${f.root}/inbox/secret (2).txt`), "two");
    assert.equal(await Deno.readTextFile(`${f.root}/inbox/notes`), "three");
    assert.equal(await Deno.readTextFile(`${f.root}/inbox/notes (1)`), "four");
    // A visitor cannot address an upload that did not come through the link (nor a finished file).
    assert.equal(await status(f, `/api/public/tus/${hash}/secret.txt`, { method: "HEAD" }), 404);
  } finally {
    await f.close();
  }
});

Deno.test("drop link: hostile names are refused, nothing lands outside the folder", async () => {
  const f = await dropApp();
  try {
    const hash = await makeDrop(f);
    // The URL parser resolves "." and ".." (also percent-encoded): ".." leaves the link (no route), "." names nothing.
    const table: [string, number][] = [
      ["..", 404],
      [".", 400],
      ["%2E%2E", 404],
      ["%2E", 400],
      ["%2E%2E%2Fescape.txt", 400],
      ["a%2Fb.txt", 400],
      ["..%2F..%2Fescape.txt", 400],
      ["x%00y", 400],
      ["line%0Abreak", 400],
      ["", 400],
    ];
    for (const [name, want] of table) {
      const r = await f.request(`/api/public/tus/${hash}/${name}`, {
        method: "POST",
        headers: { ...TUS, "Upload-Length": "1" },
      });
      await r.body?.cancel();
      assert.equal(r.status, want, name);
    }
    assert.deepEqual([...Deno.readDirSync(`${f.root}/inbox`)].map((e) => e.name), ["secret.txt"]);
    assert.equal([...Deno.readDirSync(f.root)].length, 1);
  } finally {
    await f.close();
  }
});

Deno.test("drop link: size limit 413, file limit 403 under parallel creations", async () => {
  const f = await dropApp();
  try {
    const hash = await makeDrop(f, { maxFileSize: 5, maxFiles: 3 });
    assert.equal((await rawUpload(f, hash, "big.bin", "123456")).status, 413);
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, f.app.fetch);
    try {
      const base = `http://127.0.0.1:${server.addr.port}`;
      const results = await Promise.all(Array.from({ length: 8 }, async (_, i) => {
        const r = await fetch(`${base}/api/public/tus/${hash}/p${i}.txt`, {
          method: "POST",
          headers: { ...TUS, "Upload-Length": "1" },
        });
        await r.body?.cancel();
        return r.status;
      }));
      assert.equal(results.filter((s) => s === 201).length, 3, String(results));
      assert.equal(results.filter((s) => s === 403).length, 5, String(results));
    } finally {
      await server.shutdown();
    }
    const info = await (await f.request(`/api/public/tus/${hash}`)).json();
    assert.equal(info.remaining, 0);
  } finally {
    await f.close();
  }
});

Deno.test("drop link: password required and throttled", async () => {
  const f = await dropApp({ loginRateLimit: 3 });
  try {
    const hash = await makeDrop(f, { password: "letmein" });
    assert.equal((await rawUpload(f, hash, "a.txt", "x")).status, 401);
    const ok = await rawUpload(f, hash, "a.txt", "x", { "X-SHARE-PASSWORD": "letmein" });
    assert.equal(ok.status, 204);
    // The Location carries the bypass token: the chunks need no password (and no bcrypt check) each.
    const token = new URL(ok.location!, "http://x").searchParams.get("token")!;
    assert.equal(token.length, 128);
    const created = await f.request(`/api/public/tus/${hash}/b.txt?token=${token}`, {
      method: "POST",
      headers: { ...TUS, "Upload-Length": "2" },
    });
    await created.body?.cancel();
    assert.equal(created.status, 201);
    const patchUrl = new URL(created.headers.get("Location")!, "http://x").pathname;
    assert.equal(await status(f, patchUrl, { method: "HEAD", headers: TUS }), 401);
    assert.equal(await status(f, `${patchUrl}?token=wrong`, { method: "HEAD", headers: TUS }), 401);
    assert.equal(await status(f, `${patchUrl}?token=${token}`, { method: "HEAD", headers: TUS }), 200);
    assert.equal(await Deno.readTextFile(`${f.root}/inbox/a.txt`), "x");
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await rawUpload(f, hash, "c.txt", "x", { "X-SHARE-PASSWORD": "wrong" })).status);
    }
    assert.ok(statuses.includes(429), String(statuses));
    assert.equal((await rawUpload(f, hash, "c.txt", "x", { "X-SHARE-PASSWORD": "letmein" })).status, 429);
  } finally {
    await f.close();
  }
});

Deno.test("drop link: tus-js-client uploads in chunks", async () => {
  const f = await dropApp();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, f.app.fetch);
  try {
    const hash = await makeDrop(f, { password: "pw" });
    const data = Buffer.alloc(300_000, 7);
    const url = await new Promise<string>((resolve, reject) => {
      const upload = new tus.Upload(data, {
        endpoint: `http://127.0.0.1:${server.addr.port}/api/public/tus/${hash}/photo.jpg`,
        // Like the browser client: the target is the endpoint itself, so POST goes to it.
        chunkSize: 100_000,
        headers: { "X-SHARE-PASSWORD": "pw" },
        retryDelays: [],
        onError: reject,
        onSuccess: () => resolve(upload.url!),
      });
      upload.start();
    });
    assert.match(url, new RegExp(`/api/public/tus/${hash}/[\\w-]{32}\\?token=[\\w-]{128}$`));
    assert.equal((await Deno.stat(`${f.root}/inbox/photo.jpg`)).size, 300_000);
  } finally {
    await server.shutdown();
    await f.close();
  }
});

Deno.test("drop link: a creation refused by the owner's quota does not use up the file limit", async () => {
  const f = await testApp({ users: [{ username: "owner", perm: DROPPER, quota: 10 }] });
  try {
    await Deno.mkdir(`${f.root}/inbox`);
    const hash = await makeDrop(f, { maxFiles: 1 });
    assert.equal((await rawUpload(f, hash, "big.bin", "x".repeat(20))).status, 507);
    assert.equal((await (await f.request(`/api/public/tus/${hash}`)).json()).remaining, 1);
    assert.equal((await rawUpload(f, hash, "small.bin", "ok")).status, 204);
    assert.equal((await rawUpload(f, hash, "more.bin", "no")).status, 403);
    assert.equal(await Deno.readTextFile(`${f.root}/inbox/small.bin`), "ok");
  } finally {
    await f.close();
  }
});

Deno.test("drop link: parallel uploads of one name get different names and keep their own bytes", async () => {
  const f = await dropApp();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, f.app.fetch);
  try {
    const hash = await makeDrop(f);
    const base = `http://127.0.0.1:${server.addr.port}`;
    const bodies = Array.from({ length: 6 }, (_, i) => `visitor number ${i}`);
    const locations = await Promise.all(bodies.map(async (body) => {
      const r = await fetch(`${base}/api/public/tus/${hash}/same.txt`, {
        method: "POST",
        headers: { ...TUS, "Upload-Length": String(body.length) },
      });
      await r.body?.cancel();
      assert.equal(r.status, 201);
      return r.headers.get("Location")!;
    }));
    assert.equal(new Set(locations).size, 6, String(locations));
    await Promise.all(locations.map(async (location, i) => {
      const r = await fetch(`${base}${location}`, {
        method: "PATCH",
        headers: { ...TUS, "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0" },
        body: bodies[i],
      });
      await r.body?.cancel();
      assert.equal(r.status, 204);
    }));
    const names = ["same.txt", ...bodies.slice(1).map((_, i) => `same (${i + 1}).txt`)];
    const found = await Promise.all(names.map((n) => Deno.readTextFile(`${f.root}/inbox/${n}`)));
    assert.deepEqual(found.sort(), [...bodies].sort());
  } finally {
    await server.shutdown();
    await f.close();
  }
});

Deno.test("drop link: a visitor's upload is reached by its id only, never by a name", async () => {
  const f = await dropApp();
  try {
    const hash = await makeDrop(f);
    const created = await f.request(`/api/public/tus/${hash}/a.txt`, {
      method: "POST",
      headers: { ...TUS, "Upload-Length": "5" },
    });
    await created.body?.cancel();
    assert.equal(created.status, 201);
    const location = created.headers.get("Location")!;
    const chunk = (url: string, body = "hello") =>
      status(f, url, {
        method: "PATCH",
        headers: { ...TUS, "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0" },
        body,
      });
    // A second visitor who knows (or guesses) the name, or tries ids, reaches nothing.
    const other = `/api/public/tus/${hash}/${"A".repeat(32)}`;
    for (const url of [`/api/public/tus/${hash}/a.txt`, other, `${location}x`, location.slice(0, -1)]) {
      assert.equal(await chunk(url, "evil!"), 404, url);
      assert.equal(await status(f, url, { method: "HEAD", headers: TUS }), 404, url);
    }
    // Another link's visitor with the right id reaches nothing either.
    const second = await makeDrop(f);
    assert.equal(await chunk(location.replace(hash, second), "evil!"), 404);
    assert.equal(await status(f, location, { method: "HEAD", headers: TUS }), 200);
    assert.equal(await chunk(location), 204);
    assert.equal(await Deno.readTextFile(`${f.root}/inbox/a.txt`), "hello");
    // Finished: the id leads nowhere any more.
    assert.equal(await status(f, location, { method: "HEAD", headers: TUS }), 404);
  } finally {
    await f.close();
  }
});

Deno.test("drop link: the answer to a name does not depend on what the folder holds", async () => {
  const f = await dropApp();
  try {
    const hash = await makeDrop(f);
    const long = "n".repeat(251) + ".txt";
    await Deno.writeTextFile(`${f.root}/inbox/${long}`, "taken");
    const answers = [];
    // secret.txt and the 255-byte name exist; the others do not.
    for (const name of ["secret.txt", "fresh.txt", long, "m".repeat(251) + ".txt"]) {
      const r = await f.request(`/api/public/tus/${hash}/${encodeURIComponent(name)}`, {
        method: "POST",
        headers: { ...TUS, "Upload-Length": "1" },
      });
      await r.body?.cancel();
      const location = r.headers.get("Location") ?? "";
      answers.push({
        status: r.status,
        location: location.replace(/[\w-]{32}$/, "<id>"),
        headers: [...r.headers.keys()].sort().join(","),
      });
    }
    assert.equal(new Set(answers.map((a) => JSON.stringify(a))).size, 1, JSON.stringify(answers));
    assert.equal(answers[0].status, 201);
    const names = [...Deno.readDirSync(`${f.root}/inbox`)].map((e) => e.name);
    assert.equal(names.length, 2, "nothing lands before the bytes");
  } finally {
    await f.close();
  }
});
