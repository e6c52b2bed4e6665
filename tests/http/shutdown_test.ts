/** SIGTERM stops the real server within a few seconds even while an answer cannot finish (issue #24). */
import assert from "node:assert/strict";
import { httpLogin, type ServerProcess, startServer } from "./_process.ts";

const PASSWORD = "shutdown-test-password-1";

Deno.test("SIGTERM stops the server within 5 s while a client has stopped reading a download", async () => {
  const dir = await Deno.makeTempDir();
  let server: ServerProcess | null = null;
  let body: ReadableStreamDefaultReader<Uint8Array> | null = null;
  try {
    await Deno.mkdir(`${dir}/root`);
    // Sparse: 256 MiB that the client never reads to its end.
    using file = await Deno.open(`${dir}/root/big.bin`, { create: true, write: true });
    await file.truncate(256 * 1024 * 1024);
    server = await startServer(
      ["--root", `${dir}/root`, "--database", `${dir}/db.kv`, "--cache-dir", `${dir}/cache`],
      { FB_ADMIN_PASSWORD: PASSWORD },
      { source: true },
    );
    const login = await httpLogin(server.port, "admin", PASSWORD);
    assert.equal(login.status, 200, login.text);
    const res = await fetch(`http://127.0.0.1:${server.port}/api/raw/big.bin`, {
      headers: { "X-Auth": login.text },
    });
    assert.equal(res.status, 200);
    body = res.body!.getReader();
    await body.read();
    const stopped = await server.terminate(5_000);
    server = null;
    assert.ok(stopped, "SIGTERM stopped the server within 5 s");
  } finally {
    await body?.cancel().catch(() => {});
    if (server !== null) await server.terminate(0);
    await Deno.remove(dir, { recursive: true });
  }
});
