import assert from "node:assert/strict";
import { Hono } from "hono";
import { HttpError } from "../lib/errors.ts";
import { webSocketGuard } from "./websocket_guard.ts";

const app = new Hono();
app.use("*", webSocketGuard());
app.get("*", (c) => c.text("upgraded"));
app.onError((err, c) => c.text("", (err as HttpError).status as 400));

const UPGRADE = {
  Upgrade: "websocket",
  Connection: "keep-alive, Upgrade",
  "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
  "Sec-WebSocket-Version": "13",
};

Deno.test("webSocketGuard() lets through only well-formed same-origin upgrades", async () => {
  const table: [Record<string, string>, number][] = [
    [{ Host: "files.example" }, 200],
    [{ Host: "files.example", Origin: "https://files.example" }, 200],
    [{ Host: "Files.Example:8080", Origin: "http://files.example:8080" }, 200],
    [{ Host: "[::1]:8080", Origin: "http://[::1]:8080" }, 200],
    [{ Host: "files.example", Origin: "https://evil.example" }, 403],
    [{ Host: "files.example", Origin: "https://files.example.evil.example" }, 403],
    [{ Host: "files.example:8080", Origin: "https://files.example" }, 403],
    [{ Host: "files.example", Origin: "null" }, 403],
    [{ Host: "files.example", Origin: "" }, 403],
    [{ Host: "files.example", Upgrade: "WebSocket" }, 400],
    [{ Host: "files.example", Upgrade: "h2c" }, 400],
    [{ Host: "files.example", Connection: "keep-alive" }, 400],
    [{ Host: "files.example", "Sec-WebSocket-Version": "8" }, 400],
    [{ Host: "files.example", "Sec-WebSocket-Key": "" }, 400],
  ];
  for (const [headers, status] of table) {
    const res = await app.request("http://files.example/api/command/", {
      headers: { ...UPGRADE, ...headers },
    });
    assert.equal(res.status, status, JSON.stringify(headers));
    await res.body?.cancel();
  }
  const plain = await app.request("http://files.example/api/command/");
  assert.equal(plain.status, 400);
  await plain.body?.cancel();
});
