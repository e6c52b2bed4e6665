/**
 * /api/tus over a real HTTP server (Deno.serve on port 0) with keep-alive connections: the upstream tus
 * test cases, a server restart in the middle of an upload, and the real tus-js-client.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import * as tus from "tus-js-client";
import { createApp } from "../../app.ts";
import { loadConfig } from "../../config.ts";
import { issueToken } from "../../lib/auth/mod.ts";
import { bootDeps } from "../../lib/boot.ts";
import { users } from "../../lib/storage/mod.ts";
import { testApp } from "../_helpers.ts";

const TUS_CT = "application/offset+octet-stream";

interface Served {
  url: string;
  /** Client port of every request, in order: equal ports mean a reused connection. */
  ports: number[];
  client: Deno.HttpClient;
  close(): Promise<void>;
}

function serve(
  app: { fetch: (req: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response> },
): Served {
  const ports: number[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req, info) => {
    ports.push((info.remoteAddr as Deno.NetAddr).port);
    return app.fetch(req, info);
  });
  const client = Deno.createHttpClient({});
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    ports,
    client,
    async close() {
      client.close();
      await server.shutdown();
    },
  };
}

function payload(size: number, seed = 7): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

async function sha256(data: Uint8Array<ArrayBuffer>): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", data);
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function create(s: Served, token: string, path: string, length: number): Promise<string> {
  const res = await fetch(`${s.url}/api/tus${path}?override=false`, {
    method: "POST",
    headers: { "X-Auth": token, "Upload-Length": String(length) },
    client: s.client,
  });
  assert.equal(res.status, 201, await res.text());
  return new URL(res.headers.get("Location")!, s.url).toString();
}

async function send(
  s: Served,
  token: string,
  location: string,
  offset: number,
  body: BodyInit,
): Promise<{ status: number; offset: string | null }> {
  const res = await fetch(location, {
    method: "PATCH",
    headers: { "X-Auth": token, "Upload-Offset": String(offset), "Content-Type": TUS_CT },
    body,
    client: s.client,
  });
  await res.body?.cancel();
  return { status: res.status, offset: res.headers.get("Upload-Offset") };
}

async function withServer(fn: (s: Served, token: string, root: string) => Promise<void>): Promise<void> {
  const t = await testApp({ users: [{ username: "u", perm: { create: true, modify: true, delete: true } }] });
  const s = serve(t.app);
  try {
    await fn(s, t.tokens.u, t.root);
  } finally {
    await s.close();
    await t.close();
  }
}

Deno.test("multi-chunk upload over one keep-alive connection is byte-identical", async () => {
  await withServer(async (s, token, root) => {
    const data = payload(3 * 65536 + 1234);
    const loc = await create(s, token, "/movie.bin", data.length);
    for (let off = 0; off < data.length; off += 65536) {
      const part = data.subarray(off, Math.min(off + 65536, data.length));
      const res = await send(s, token, loc, off, part);
      assert.equal(res.status, 204);
      assert.equal(res.offset, String(off + part.length));
    }
    assert.equal(await sha256(await Deno.readFile(`${root}/movie.bin`)), await sha256(data));
    assert.equal(new Set(s.ports).size, 1, "every request used the same connection");
  });
});

Deno.test("HEAD between chunks reports the offset and the declared length", async () => {
  await withServer(async (s, token) => {
    const loc = await create(s, token, "/half.bin", 65536);
    assert.equal((await send(s, token, loc, 0, payload(32768))).status, 204);
    const head = await fetch(loc, { method: "HEAD", headers: { "X-Auth": token }, client: s.client });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("Upload-Offset"), "32768");
    assert.equal(head.headers.get("Upload-Length"), "65536");
    assert.equal(head.headers.get("Cache-Control"), "no-store");
  });
});

Deno.test("a stale offset gets 409 and the upload continues on the same connection", async () => {
  await withServer(async (s, token, root) => {
    const mib = 1024 * 1024;
    const data = payload(2 * mib);
    const loc = await create(s, token, "/stale.bin", data.length);
    assert.equal((await send(s, token, loc, 0, data.subarray(0, mib))).status, 204);
    const before = s.ports.length;
    assert.equal((await send(s, token, loc, 0, data.subarray(0, mib))).status, 409);
    const res = await send(s, token, loc, mib, data.subarray(mib));
    assert.equal(res.status, 204);
    assert.equal(res.offset, String(2 * mib));
    assert.equal(s.ports[before], s.ports[before + 1], "the connection survived the 409");
    assert.equal(await sha256(await Deno.readFile(`${root}/stale.bin`)), await sha256(data));
  });
});

function streamOf(data: Uint8Array<ArrayBuffer>, piece = 64 * 1024): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= data.length) return c.close();
      c.enqueue(data.subarray(at, at + piece));
      at += piece;
    },
  });
}

Deno.test("an over-length chunk gets 413 and the connection stays usable", async () => {
  await withServer(async (s, token, root) => {
    const loc = await create(s, token, "/short.bin", 1024);
    const before = s.ports.length;
    assert.equal(
      (await send(s, token, loc, 0, payload(4 * 1024 * 1024))).status,
      413,
      "Content-Length too big",
    );
    // Without Content-Length the overflow shows only while streaming; the rest must still be drained.
    assert.equal((await send(s, token, loc, 0, streamOf(payload(4 * 1024 * 1024)))).status, 413, "streamed");
    const exact = payload(1024, 3);
    assert.equal((await send(s, token, loc, 0, exact)).status, 204);
    assert.equal(new Set(s.ports.slice(before)).size, 1, "the connection survived both 413s");
    assert.deepEqual(await Deno.readFile(`${root}/short.bin`), exact);
  });
});

Deno.test("PATCHes refused before their body is read (401, 403) leave the connection usable", async () => {
  const t = await testApp({
    users: [{ username: "u", perm: { create: true } }, { username: "viewer", perm: { download: true } }],
  });
  const s = serve(t.app);
  try {
    const loc = await create(s, t.tokens.u, "/v.bin", 4);
    const before = s.ports.length;
    assert.equal((await send(s, "", loc, 0, payload(2 * 1024 * 1024))).status, 401);
    assert.equal((await send(s, t.tokens.viewer, loc, 0, payload(2 * 1024 * 1024))).status, 403);
    assert.equal((await send(s, t.tokens.u, loc, 0, "abcd")).status, 204);
    assert.equal(new Set(s.ports.slice(before)).size, 1, "the connection survived the 401 and the 403");
  } finally {
    await s.close();
    await t.close();
  }
});

Deno.test("the declared length is enforced even for streamed bodies without Content-Length", async () => {
  await withServer(async (s, token, root) => {
    const loc = await create(s, token, "/file.txt", 5);
    const chunks = [new TextEncoder().encode("A".repeat(2500)), new TextEncoder().encode("A".repeat(2500))];
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        const next = chunks.shift();
        if (next) c.enqueue(next);
        else c.close();
      },
    });
    assert.equal((await send(s, token, loc, 0, stream)).status, 413);
    const head = await fetch(loc, { method: "HEAD", headers: { "X-Auth": token }, client: s.client });
    assert.equal(head.headers.get("Upload-Offset"), "0", "nothing of the rejected chunk was kept");
    assert.equal(await Deno.lstat(`${root}/file.txt`).then(() => true, () => false), false);
    assert.equal((await send(s, token, loc, 0, "hello")).status, 204);
    assert.equal(await Deno.readTextFile(`${root}/file.txt`), "hello");
  });
});

Deno.test("an upload interrupted by a server restart finishes after the restart", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fbrestart-" });
  const config = loadConfig(
    [
      "--root",
      `${dir}/root`,
      "--database",
      `${dir}/db/fb.kv`,
      "--upload-dir",
      `${dir}/uploads`,
      "--cache-dir",
      `${dir}/cache`,
      "--password",
      "a-long-enough-password",
    ],
    {},
    dir,
  );
  const data = payload(3 * 100_000);
  try {
    const first = await bootDeps(config);
    const admin = (await users.findUserByName(first.deps.kv, "admin"))!;
    const token = await issueToken(first.deps, admin);
    const a = serve(createApp(first.deps));
    const loc = new URL(await create(a, token, "/restart.bin", data.length), a.url).pathname;
    assert.equal((await send(a, token, a.url + loc, 0, data.subarray(0, 100_000))).status, 204);
    // The second chunk is cut off mid-body, as if the connection died with the server.
    const ctrl = new AbortController();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (sent >= 50_000) {
          await new Promise((r) => setTimeout(r, 100));
          ctrl.abort();
          return;
        }
        c.enqueue(data.subarray(100_000 + sent, 100_000 + sent + 25_000));
        sent += 25_000;
      },
    });
    await fetch(a.url + loc, {
      method: "PATCH",
      headers: { "X-Auth": token, "Upload-Offset": "100000", "Content-Type": TUS_CT },
      body,
      signal: ctrl.signal,
      client: a.client,
    }).then((r) => r.body?.cancel(), () => {});
    await new Promise((r) => setTimeout(r, 100));
    await a.close();
    first.deps.kv.close();

    const second = await bootDeps(config);
    const b = serve(createApp(second.deps));
    try {
      const head = await fetch(b.url + loc, {
        method: "HEAD",
        headers: { "X-Auth": token },
        client: b.client,
      });
      assert.equal(head.status, 200);
      const offset = Number(head.headers.get("Upload-Offset"));
      assert.ok(offset >= 100_000 && offset <= 150_000, `offset after restart: ${offset}`);
      assert.equal((await send(b, token, b.url + loc, offset, data.subarray(offset))).status, 204);
      assert.equal(await sha256(await Deno.readFile(`${dir}/root/restart.bin`)), await sha256(data));
    } finally {
      await b.close();
      second.deps.kv.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** An in-memory tus-js-client URL storage (the browser uses localStorage with the same `tus::` keys). */
class MemoryUrlStorage {
  entries = new Map<string, tus.PreviousUpload>();
  findAllUploads() {
    return Promise.resolve([...this.entries.values()]);
  }
  findUploadsByFingerprint(fp: string) {
    return Promise.resolve(
      [...this.entries].filter(([k]) => k.startsWith(`tus::${fp}::`)).map(([k, v]) => ({
        ...v,
        urlStorageKey: k,
      })),
    );
  }
  removeUpload(key: string) {
    this.entries.delete(key);
    return Promise.resolve();
  }
  addUpload(fp: string, upload: tus.PreviousUpload) {
    const key = `tus::${fp}::${this.entries.size}`;
    this.entries.set(key, upload);
    return Promise.resolve(key);
  }
}

Deno.test({
  name: "tus-js-client uploads in chunks, is stopped, and resumes from its stored record",
  // tus-js-client's Node build keeps node:http sockets alive past the test.
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withServer(async (s, token, root) => {
      const data = Buffer.from(payload(5 * 64 * 1024 + 99));
      const urlStorage = new MemoryUrlStorage();
      const options = (onChunk: (sent: number) => void): tus.UploadOptions => ({
        endpoint: `${s.url}/api/tus/client/data.bin?override=false`,
        chunkSize: 64 * 1024,
        retryDelays: [0, 1000],
        parallelUploads: 1,
        headers: { "X-Auth": token },
        urlStorage,
        removeFingerprintOnSuccess: true,
        onChunkComplete: (_size, sent) => onChunk(sent),
      });
      let first!: tus.Upload;
      const stopped = new Promise<number>((resolve, reject) => {
        first = new tus.Upload(data, {
          ...options((sent) => {
            if (sent >= 128 * 1024) first.abort().then(() => resolve(sent), reject);
          }),
          onError: reject,
        });
        first.start();
      });
      const sentBeforeStop = await stopped;
      assert.equal(urlStorage.entries.size, 1, "a resumable record was stored");
      const requests: string[] = [];
      await new Promise<void>((resolve, reject) => {
        const second = new tus.Upload(data, {
          ...options(() => {}),
          onBeforeRequest: (req) => {
            requests.push(req.getMethod());
          },
          onError: reject,
          onSuccess: () => resolve(),
        });
        second.findPreviousUploads().then((previous) => {
          assert.equal(previous.length, 1);
          second.resumeFromPreviousUpload(previous[0]);
          second.start();
        }, reject);
      });
      assert.equal(requests[0], "HEAD", "the second client resumed instead of starting over");
      assert.ok(!requests.includes("POST"));
      assert.equal(
        requests.filter((m) => m === "PATCH").length,
        Math.ceil((data.length - sentBeforeStop) / 65536),
      );
      assert.equal(urlStorage.entries.size, 0, "the record is cleared on success");
      assert.equal(await sha256(await Deno.readFile(`${root}/client/data.bin`)), await sha256(data));
    });
  },
});

Deno.test({
  name: "tus-js-client reports a refused upload (403) without retrying",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const t = await testApp({ users: [{ username: "viewer", perm: { download: true } }] });
    const s = serve(t.app);
    try {
      let attempts = 0;
      const err = await new Promise<Error>((resolve) => {
        new tus.Upload(Buffer.from("hi"), {
          endpoint: `${s.url}/api/tus/x.txt?override=false`,
          headers: { "X-Auth": t.tokens.viewer },
          retryDelays: [0, 10, 10],
          onBeforeRequest: () => {
            attempts++;
          },
          onError: resolve,
          onSuccess: () => resolve(new Error("unexpected success")),
        }).start();
      });
      assert.match(err.message, /response code: 403/);
      assert.equal(attempts, 1);
    } finally {
      await s.close();
      await t.close();
    }
  },
});
