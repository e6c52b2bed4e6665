import assert from "node:assert/strict";
import { writeChunk } from "./chunk_writer.ts";
import { createStagingFile } from "./staging.ts";

type Kind = "default" | "bytes";

/** A body in `parts`, as a default stream or as a byte stream (what Deno's request bodies are). */
function streamOf(kind: Kind, parts: Uint8Array[], options: { failAfter?: number } = {}) {
  let i = 0;
  const pull = (controller: ReadableStreamDefaultController<Uint8Array> | ReadableByteStreamController) => {
    if (options.failAfter !== undefined && i === options.failAfter) {
      controller.error(new Error("connection reset"));
      return;
    }
    if (i < parts.length) controller.enqueue(parts[i++].slice());
    else {
      controller.close();
      // A byte source must answer a pending BYOB read when it closes.
      (controller as ReadableByteStreamController).byobRequest?.respond(0);
    }
  };
  return kind === "bytes"
    ? new ReadableStream({ type: "bytes", pull }) as ReadableStream<Uint8Array>
    : new ReadableStream<Uint8Array>({ pull });
}

const bytes = (s: string) => new TextEncoder().encode(s);

async function withFile(fn: (path: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "fbchunk-" });
  try {
    await fn(await createStagingFile(dir, "x"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

for (const kind of ["default", "bytes"] as const) {
  Deno.test(`writeChunk() appends at the offset and cuts bytes of an uncommitted earlier write (${kind} stream)`, async () => {
    await withFile(async (path) => {
      await Deno.writeFile(path, bytes("hello, GARBAGE"));
      const res = await writeChunk(path, streamOf(kind, [bytes("wor"), bytes("ld")]), {
        offset: 5,
        limit: 10,
      });
      assert.deepEqual(res, { written: 5, overflow: false, aborted: false });
      assert.equal(await Deno.readTextFile(path), "helloworld");
    });
  });

  Deno.test(`writeChunk() keeps bytes in order across its 1 MiB write buffers (${kind} stream)`, async () => {
    await withFile(async (path) => {
      const data = new Uint8Array(2_600_000).map((_, i) => (i * 7 + (i >> 11)) & 0xff);
      const parts: Uint8Array[] = [];
      for (let at = 0; at < data.length; at += 100_003) parts.push(data.subarray(at, at + 100_003));
      const res = await writeChunk(path, streamOf(kind, parts), { offset: 0, limit: data.length });
      assert.deepEqual(res, { written: data.length, overflow: false, aborted: false });
      assert.deepEqual(await Deno.readFile(path), data);
    });
  });

  Deno.test(`writeChunk() keeps nothing of a body longer than the limit (${kind} stream)`, async () => {
    await withFile(async (path) => {
      await Deno.writeFile(path, bytes("abc"));
      const body = streamOf(kind, [bytes("12"), bytes("34"), bytes("56")]);
      const res = await writeChunk(path, body, { offset: 3, limit: 3 });
      assert.equal(res.overflow, true);
      assert.equal(res.written, 0);
      assert.equal(await Deno.readTextFile(path), "abc");
      assert.equal(body.locked, false, "the reader lock is released so the rest can be drained");
    });
  });

  Deno.test(`writeChunk() keeps what arrived before the client went away (${kind} stream)`, async () => {
    await withFile(async (path) => {
      const body = streamOf(kind, [bytes("abc"), bytes("def"), bytes("ghi")], { failAfter: 2 });
      const res = await writeChunk(path, body, { offset: 0, limit: 100 });
      // A byte stream keeps the buffer of the failed read, so the unwritten tail is lost; what is reported as
      // written is exactly what is on disk either way.
      assert.deepEqual(res, { written: kind === "bytes" ? 0 : 6, overflow: false, aborted: true });
      assert.equal(await Deno.readTextFile(path), kind === "bytes" ? "" : "abcdef");
    });
  });
}

Deno.test("writeChunk() reads a Request body (what Deno.serve hands out) and refuses to pad a short file", async () => {
  await withFile(async (path) => {
    const data = new Uint8Array(3 * 1024 * 1024 + 5).map((_, i) => i & 0xff);
    const req = new Request("http://x/", { method: "PATCH", body: data });
    const res = await writeChunk(path, req.body, { offset: 0, limit: data.length });
    assert.equal(res.written, data.length);
    assert.deepEqual(await Deno.readFile(path), data);
    await Deno.truncate(path, 10);
    await assert.rejects(writeChunk(path, null, { offset: 11, limit: 5 }), { status: 409 });
    assert.equal((await Deno.stat(path)).size, 10);
  });
});
