import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { ndjson } from "./ndjson.ts";

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(enc.encode(c));
      controller.close();
    },
  });
}

Deno.test("ndjson() parses lines split across chunks and skips empty keep-alive lines", async () => {
  const out = [];
  for await (
    const x of ndjson(streamOf(['{"dir":false,"pa', 'th":"a.txt"}\n\n', '{"dir":true,"path":"b"}']))
  ) {
    out.push(x);
  }
  deepStrictEqual(out, [{ dir: false, path: "a.txt" }, { dir: true, path: "b" }]);
});

Deno.test("ndjson() yields each line before the stream ends", async () => {
  let push!: (s: string) => void;
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      push = (s) => c.enqueue(enc.encode(s));
    },
  });
  const it = ndjson<{ path: string }>(body);
  push('{"path":"first"}\n');
  strictEqual((await it.next()).value?.path, "first");
  await it.return(undefined);
});
