import assert from "node:assert/strict";
import { Hono } from "hono";
import { drainBody } from "./drain_body.ts";

const app = new Hono();
app.use("*", drainBody({ maxBytes: 1000 }));
app.post("/refuse", (c) => c.text("refused", 413));
app.post("/accept", async (c) => c.text(String((await c.req.arrayBuffer()).byteLength)));

/** A body of `chunks` chunks of 100 bytes that counts how many were read. */
function countingBody(chunks: number): { body: ReadableStream<Uint8Array>; read: () => number } {
  let n = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (n === chunks) return controller.close();
      n++;
      controller.enqueue(new Uint8Array(100));
    },
  }, { highWaterMark: 0 });
  return { body, read: () => n };
}

Deno.test("drainBody() reads the rest of a refused body up to its limit, and leaves accepted ones alone", async () => {
  const small = countingBody(5);
  const refused = await app.request("http://x/refuse", { method: "POST", body: small.body });
  assert.equal(refused.status, 413);
  await refused.text();
  assert.equal(small.read(), 5);

  const big = countingBody(100);
  const tooBig = await app.request("http://x/refuse", { method: "POST", body: big.body });
  assert.equal(tooBig.status, 413);
  await tooBig.text();
  assert.ok(big.read() <= 12, `read ${big.read()} chunks past a 1000-byte limit`);

  const accepted = countingBody(3);
  const ok = await app.request("http://x/accept", { method: "POST", body: accepted.body });
  assert.equal(ok.status, 200);
  assert.equal(await ok.text(), "300");
});
