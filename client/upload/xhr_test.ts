import assert from "node:assert/strict";
import { UploadAbortedError, UploadError } from "./tus.ts";
import { createXhrUploader } from "./xhr.ts";
import type { XhrLike } from "./xhr.ts";

class FakeXhr implements XhrLike {
  method = "";
  url = "";
  headers: Record<string, string> = {};
  body: unknown = null;
  aborted = false;
  status = 0;
  responseText = "";
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  upload = { onprogress: null as ((e: { loaded: number }) => void) | null };
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
  }
  answer(status: number, text = "") {
    this.status = status;
    this.responseText = text;
    this.onload?.();
  }
}

function setup() {
  const made: FakeXhr[] = [];
  const uploader = createXhrUploader({
    baseUrl: "http://h/fb",
    getToken: () => "tok",
    createXhr: () => {
      const x = new FakeXhr();
      made.push(x);
      return x;
    },
  });
  const file = { name: "a#b.txt", size: 3, type: "text/plain" };
  const progress: number[] = [];
  const handle = uploader({
    path: "/d/a#b.txt",
    file,
    overwrite: false,
    onProgress: (n) => progress.push(n),
  });
  return { x: made[0], handle, progress, file };
}

Deno.test("createXhrUploader() POSTs the file with X-Auth and reports progress; 200 is success", async () => {
  const { x, handle, progress, file } = setup();
  assert.equal(x.method, "POST");
  assert.equal(x.url, "http://h/fb/api/resources/d/a%23b.txt?override=false");
  assert.equal(x.headers["X-Auth"], "tok");
  assert.equal(x.body, file);
  x.upload.onprogress!({ loaded: 2 });
  assert.deepEqual(progress, [2]);
  x.answer(200, "200 OK\n");
  await handle.done;
});

Deno.test("createXhrUploader() maps 409, other statuses, network errors and abort", async () => {
  const conflict = setup();
  conflict.x.answer(409, "409 Conflict\n");
  await assert.rejects(conflict.handle.done, (e: unknown) => e instanceof UploadError && e.status === 409);
  const other = setup();
  other.x.answer(403, "403 Forbidden\n");
  await assert.rejects(
    other.handle.done,
    (e: unknown) => e instanceof UploadError && e.message === "403 Forbidden",
  );
  const net = setup();
  net.x.onerror!();
  await assert.rejects(
    net.handle.done,
    (e: unknown) => e instanceof UploadError && e.message === "001 Connection aborted",
  );
  const aborted = setup();
  await aborted.handle.abort();
  assert.equal(aborted.x.aborted, true);
  await assert.rejects(aborted.handle.done, UploadAbortedError);
});
