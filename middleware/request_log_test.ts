import assert from "node:assert/strict";
import { Hono } from "hono";
import { type LogLevel, setLogLevel, setLogSink } from "../lib/log.ts";
import { requestLog } from "./request_log.ts";

const app = new Hono();
app.use("*", requestLog());
app.get("/ok", (c) => c.text("ok"));
app.get("/down", (c) => c.text("down", 503));

Deno.test("requestLog() writes one line per request: a 5xx as a warning, the rest at debug level", async () => {
  const lines: [LogLevel, string][] = [];
  const previous = setLogSink((level, line) => lines.push([level, line]));
  setLogLevel("debug");
  try {
    for (const path of ["/ok", "/down", "/missing?q=secret"]) {
      await (await app.request(`http://x${path}`)).text();
    }
  } finally {
    setLogSink(previous);
    setLogLevel("info");
  }
  assert.equal(lines.length, 3);
  assert.equal(lines[0][0], "debug");
  assert.match(lines[0][1], /GET \/ok 200 \d+\.\dms$/);
  assert.equal(lines[1][0], "warn");
  assert.match(lines[1][1], /GET \/down 503 /);
  // The query string stays out of the log (it may carry share tokens).
  assert.match(lines[2][1], /GET \/missing 404 /);
});
