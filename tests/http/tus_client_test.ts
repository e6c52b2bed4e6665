/**
 * The browser upload queue (client/upload) with the real tus-js-client against the real server on port 0:
 * folders and files in one batch, and a "reload" in the middle of an upload that resumes from the stored
 * `tus::` record. tus-js-client runs its Node build here (Buffer input, node:http); the browser build differs
 * only in its HTTP stack and file reader.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import * as tus from "tus-js-client";
import type { UploadOptions } from "tus-js-client";
import { createUploadQueue } from "../../client/upload/queue.ts";
import type { UploadBlob } from "../../client/upload/queue.ts";
import { createTusUploader, StorageUrlStorage } from "../../client/upload/tus.ts";
import type { RecordStorage, TusModule } from "../../client/upload/tus.ts";
import { testApp } from "../_helpers.ts";

class MemoryStorage implements RecordStorage {
  map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  key = (i: number) => [...this.map.keys()][i] ?? null;
  getItem = (k: string) => this.map.get(k) ?? null;
  setItem = (k: string, v: string) => void this.map.set(k, v);
  removeItem = (k: string) => void this.map.delete(k);
}

function bytes(size: number, seed: number): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 31 + seed) & 0xff;
  return b;
}

/** A Buffer standing in for a File (tus-js-client's Node build reads Buffers). */
function asFile(b: Buffer, name: string): UploadBlob {
  return Object.assign(b, { name, type: "application/octet-stream" }) as unknown as UploadBlob;
}

async function setup() {
  const t = await testApp({ users: [{ username: "u", perm: { create: true, modify: true, delete: true } }] });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, t.app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  const createDir = async (path: string) => {
    const res = await fetch(`${base}/api/resources${path}`, {
      method: "POST",
      headers: { "X-Auth": t.tokens.u },
    });
    await res.body?.cancel();
    if (!res.ok) throw new Error(`${res.status}`);
  };
  return {
    t,
    base,
    createDir,
    async close() {
      await server.shutdown();
      await t.close();
    },
  };
}

Deno.test({
  name: "the upload queue sends a folder and files through tus-js-client to the real server",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await setup();
    try {
      const storage = new MemoryStorage();
      let reloads = 0;
      const errors: string[] = [];
      const queue = createUploadQueue({
        uploader: createTusUploader({
          settings: { chunkSize: 64 * 1024, retryCount: 1 },
          baseUrl: s.base,
          getToken: () => s.t.tokens.u,
          storage: new StorageUrlStorage(storage),
        }),
        createDir: s.createDir,
        onFinished: () => reloads++,
        onError: (e) => errors.push(e.message),
      });
      const files = [bytes(200_000, 1), bytes(70_000, 2), bytes(0, 3)];
      await Deno.writeTextFile(`${s.t.root}/exists.bin`, "keep me");
      queue.enqueue([
        { kind: "dir", path: "/album/" },
        { kind: "file", path: "/album/one.bin", file: asFile(files[0], "one.bin"), overwrite: false },
        { kind: "file", path: "/album/two.bin", file: asFile(files[1], "two.bin"), overwrite: false },
        { kind: "file", path: "/album/empty.bin", file: asFile(files[2], "empty.bin"), overwrite: false },
        { kind: "file", path: "/exists.bin", file: asFile(bytes(10, 4), "exists.bin"), overwrite: false },
      ]);
      assert.equal(queue.count.value, 5);
      await queue.idle();
      assert.deepEqual(errors, ["Failed to create an upload: 409 Conflict"]);
      assert.equal(reloads, 1);
      assert.equal(queue.count.value, 0);
      assert.deepEqual(await Deno.readFile(`${s.t.root}/album/one.bin`), new Uint8Array(files[0]));
      assert.deepEqual(await Deno.readFile(`${s.t.root}/album/two.bin`), new Uint8Array(files[1]));
      assert.equal((await Deno.stat(`${s.t.root}/album/empty.bin`)).size, 0);
      assert.equal(await Deno.readTextFile(`${s.t.root}/exists.bin`), "keep me");
      assert.equal(storage.length, 0, "no resumable record is left behind");
    } finally {
      await s.close();
    }
  },
});

Deno.test({
  name: "a reload in the middle of an upload resumes from the tus:: record instead of starting over",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await setup();
    try {
      const storage = new MemoryStorage();
      const data = bytes(300_000, 9);
      const methods: string[] = [];
      // The first page "dies" after one chunk: its upload stops without terminating, like a closed tab.
      let page1Upload: tus.Upload | null = null;
      let died!: () => void;
      const dead = new Promise<void>((resolve) => died = resolve);
      class DyingUpload extends tus.Upload {
        constructor(file: unknown, options: UploadOptions) {
          super(file as Buffer, {
            ...options,
            onChunkComplete: () => void page1Upload?.abort(false).then(died),
          });
          page1Upload = this;
        }
      }
      const settings = { chunkSize: 64 * 1024, retryCount: 1 };
      const page1 = createUploadQueue({
        uploader: createTusUploader({
          settings,
          baseUrl: s.base,
          getToken: () => s.t.tokens.u,
          storage: new StorageUrlStorage(storage),
          tus: { Upload: DyingUpload } as unknown as TusModule,
        }),
        createDir: s.createDir,
      });
      page1.enqueue([{ kind: "file", path: "/big.bin", file: asFile(data, "big.bin"), overwrite: false }]);
      await dead;
      assert.equal(storage.length, 1, "the record survives the page");
      assert.ok([...storage.map.keys()][0].startsWith("tus::"));

      const errors: string[] = [];
      const page2 = createUploadQueue({
        onError: (e) => errors.push(e.message),
        uploader: createTusUploader({
          settings,
          baseUrl: s.base,
          getToken: () => s.t.tokens.u,
          storage: new StorageUrlStorage(storage),
          tus: {
            Upload: class extends tus.Upload {
              constructor(file: unknown, options: UploadOptions) {
                super(file as Buffer, {
                  ...options,
                  onBeforeRequest: (req) => {
                    methods.push(req.getMethod());
                    return options.onBeforeRequest?.(req);
                  },
                });
              }
            },
          } as unknown as TusModule,
        }),
        createDir: s.createDir,
      });
      page2.enqueue([{ kind: "file", path: "/big.bin", file: asFile(data, "big.bin"), overwrite: false }]);
      await page2.idle();
      assert.deepEqual(errors, []);
      assert.equal(methods[0], "HEAD", `resumed with HEAD, got ${methods.join(",")}`);
      assert.ok(!methods.includes("POST"), "no new upload was created");
      assert.ok(methods.filter((m) => m === "PATCH").length < Math.ceil(data.length / settings.chunkSize));
      assert.deepEqual(await Deno.readFile(`${s.t.root}/big.bin`), new Uint8Array(data));
      assert.equal(storage.length, 0);
    } finally {
      await s.close();
    }
  },
});
