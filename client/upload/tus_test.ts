import assert from "node:assert/strict";
import type { PreviousUpload, UploadOptions } from "tus-js-client";
import {
  createTusUploader,
  retryDelays,
  shouldRetry,
  StorageUrlStorage,
  UploadAbortedError,
  UploadError,
  uploadErrorOf,
} from "./tus.ts";
import type { RecordStorage, TusModule } from "./tus.ts";

/** A Web Storage over a Map (what localStorage offers). */
class MemoryStorage implements RecordStorage {
  #map = new Map<string, string>();
  get length() {
    return this.#map.size;
  }
  key(i: number) {
    return [...this.#map.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.#map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.#map.set(k, v);
  }
  removeItem(k: string) {
    this.#map.delete(k);
  }
  keys() {
    return [...this.#map.keys()];
  }
}

function fakeResponse(status: number, body = "") {
  return {
    getStatus: () => status,
    getBody: () => body,
    getHeader: () => undefined,
    getUnderlyingObject: () => null,
  };
}

function fakeRequest(method: string) {
  return { getMethod: () => method, getURL: () => "", setHeader() {}, getHeader: () => undefined };
}

Deno.test("retryDelays() starts at 0, then 1 s doubling up to 20 s, one per retry", () => {
  assert.deepEqual(retryDelays(0), []);
  assert.deepEqual(retryDelays(-1), []);
  assert.deepEqual(retryDelays(1), [0]);
  assert.deepEqual(retryDelays(5), [0, 1000, 2000, 4000, 8000]);
  assert.deepEqual(retryDelays(8), [0, 1000, 2000, 4000, 8000, 16000, 20000, 20000]);
});

Deno.test("shouldRetry() skips 4xx except 409 and 423, and never retries offline", () => {
  assert.equal(shouldRetry(0, { online: true }), true, "network errors are retried");
  assert.equal(shouldRetry(500, { online: true }), true);
  assert.equal(shouldRetry(403, { online: true }), false);
  assert.equal(shouldRetry(413, { online: true }), false);
  assert.equal(shouldRetry(409, { online: true }), true);
  assert.equal(shouldRetry(423, { online: true }), true);
  assert.equal(shouldRetry(500, { online: false }), false);
});

Deno.test("uploadErrorOf() gives filebrowser's upload error messages", () => {
  const create = uploadErrorOf({
    originalRequest: fakeRequest("POST"),
    originalResponse: fakeResponse(409, "409 Conflict\n"),
  });
  assert.deepEqual([create.status, create.message], [409, "Failed to create an upload: 409 Conflict"]);
  const chunk = uploadErrorOf({
    originalRequest: fakeRequest("PATCH"),
    originalResponse: fakeResponse(413, "413 Request Entity Too Large\n"),
  });
  assert.deepEqual([chunk.status, chunk.message], [413, "Upload failed: 413 Request Entity Too Large"]);
  const network = uploadErrorOf({ originalRequest: fakeRequest("PATCH"), originalResponse: null });
  assert.deepEqual([network.status, network.message], [0, "Upload failed: 001 Connection aborted"]);
  assert.equal(
    uploadErrorOf(new Error("tus: no file or stream to upload provided")).message,
    "Upload failed: tus: no file or stream to upload provided",
  );
});

Deno.test("StorageUrlStorage keeps records under tus::<fingerprint>:: and skips damaged ones", async () => {
  const storage = new MemoryStorage();
  const urls = new StorageUrlStorage(storage);
  const record: PreviousUpload = {
    size: 5,
    metadata: {},
    creationTime: "now",
    uploadUrl: "/api/tus/a",
  } as PreviousUpload;
  const key = await urls.addUpload("fp-a", record);
  assert.match(key, /^tus::fp-a::\d+$/);
  await urls.addUpload("fp-b", { ...record, uploadUrl: "/api/tus/b" });
  storage.setItem("tus::fp-a::broken", "{not json");
  storage.setItem("other", "x");
  const found = await urls.findUploadsByFingerprint("fp-a");
  assert.deepEqual(found.map((r) => [r.uploadUrl, r.urlStorageKey]), [["/api/tus/a", key]]);
  assert.equal((await urls.findAllUploads()).length, 2);
  await urls.removeUpload(key);
  assert.deepEqual(await urls.findUploadsByFingerprint("fp-a"), []);
});

/** A stand-in for tus.Upload that records its options and lets the test finish it. */
function fakeTus() {
  const made: FakeUpload[] = [];
  class FakeUpload {
    options: UploadOptions;
    file: unknown;
    started = false;
    terminated = false;
    resumed: PreviousUpload | null = null;
    static previous: PreviousUpload[] = [];
    constructor(file: unknown, options: UploadOptions) {
      this.file = file;
      this.options = { fingerprint: () => Promise.resolve("fp"), ...options };
      made.push(this);
    }
    start() {
      this.started = true;
    }
    abort(terminate?: boolean) {
      this.terminated = !!terminate;
      return Promise.resolve();
    }
    findPreviousUploads() {
      return Promise.resolve(FakeUpload.previous);
    }
    resumeFromPreviousUpload(p: PreviousUpload) {
      this.resumed = p;
    }
  }
  return { module: { Upload: FakeUpload } as unknown as TusModule, made, FakeUpload };
}

const blob = { name: "a b.txt", size: 3, type: "text/plain" };

Deno.test("createTusUploader() configures tus-js-client from the settings and sends a fresh X-Auth", async () => {
  const { module, made } = fakeTus();
  let token = "t1";
  const uploader = createTusUploader({
    settings: { chunkSize: 1024, retryCount: 3 },
    baseUrl: "https://host/fb",
    getToken: () => token,
    storage: new StorageUrlStorage(new MemoryStorage()),
    tus: module,
  });
  const progress: number[] = [];
  const handle = uploader({
    path: "/dir/a b.txt",
    file: blob,
    overwrite: true,
    onProgress: (n) => progress.push(n),
  });
  await new Promise((r) => setTimeout(r, 0));
  const up = made[0];
  assert.equal(up.started, true);
  assert.equal(up.options.endpoint, "https://host/fb/api/tus/dir/a%20b.txt?override=true");
  assert.equal(up.options.chunkSize, 1024);
  assert.deepEqual(up.options.retryDelays, [0, 1000, 2000]);
  assert.equal(up.options.parallelUploads, 1);
  assert.equal(up.options.storeFingerprintForResuming, true);
  assert.equal(up.options.removeFingerprintOnSuccess, true);
  const headers: Record<string, string> = {};
  const req = { setHeader: (k: string, v: string) => headers[k] = v };
  // deno-lint-ignore no-explicit-any -- the fake request only implements setHeader
  await up.options.onBeforeRequest!(req as any);
  assert.equal(headers["X-Auth"], "t1");
  token = "t2";
  // deno-lint-ignore no-explicit-any -- as above
  await up.options.onBeforeRequest!(req as any);
  assert.equal(headers["X-Auth"], "t2", "a renewed token is used by the next request");
  up.options.onProgress!(2, 3);
  assert.deepEqual(progress, [2]);
  up.options.onSuccess!({ lastResponse: fakeResponse(204) });
  await handle.done;
});

Deno.test("createTusUploader() resumes from a stored record and forgets records after an error", async () => {
  const { module, made, FakeUpload } = fakeTus();
  const storage = new MemoryStorage();
  const urls = new StorageUrlStorage(storage);
  const key = await urls.addUpload(
    "fp",
    { size: 3, metadata: {}, creationTime: "x", uploadUrl: "/api/tus/x" } as PreviousUpload,
  );
  FakeUpload.previous = await urls.findUploadsByFingerprint("fp");
  const uploader = createTusUploader({
    settings: { chunkSize: 1024, retryCount: 0 },
    baseUrl: "",
    getToken: () => "",
    storage: urls,
    tus: module,
  });
  const handle = uploader({ path: "x", file: blob, overwrite: false, onProgress() {} });
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(made[0].resumed?.urlStorageKey, key);
  assert.deepEqual(made[0].options.retryDelays, [], "retryCount 0 disables retries");
  made[0].options.onError!(
    Object.assign(new Error("tus"), {
      originalRequest: fakeRequest("PATCH"),
      originalResponse: fakeResponse(500, ""),
    }),
  );
  await assert.rejects(
    handle.done,
    (e: unknown) => e instanceof UploadError && e.message === "Upload failed: 500 Internal Server Error",
  );
  assert.deepEqual(storage.keys(), [], "the record of the failed upload is gone");
});

Deno.test("createTusUploader() fails without settings and terminates on abort", async () => {
  const { module, made } = fakeTus();
  const none = createTusUploader({
    settings: null,
    baseUrl: "",
    getToken: () => "",
    storage: new StorageUrlStorage(new MemoryStorage()),
    tus: module,
  });
  await assert.rejects(
    none({ path: "/x", file: blob, overwrite: false, onProgress() {} }).done,
    /^UploadError: Tus.io settings are not defined$/,
  );
  const uploader = createTusUploader({
    settings: { chunkSize: 10, retryCount: 1 },
    baseUrl: "",
    getToken: () => "",
    storage: new StorageUrlStorage(new MemoryStorage()),
    tus: module,
  });
  const handle = uploader({ path: "/x", file: blob, overwrite: false, onProgress() {} });
  await new Promise((r) => setTimeout(r, 0));
  await handle.abort();
  assert.equal(made[0].terminated, true);
  await assert.rejects(handle.done, UploadAbortedError);
});
