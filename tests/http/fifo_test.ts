/**
 * Issue #24: a named pipe made in a user's folder while the server runs. Deno's file watcher opened it and
 * stuck there, and with it the server's thread: requests and SIGTERM went unanswered. The real server is
 * started, so the search index's watch, the listing cache and the folder-size cache are all in play.
 */
import assert from "node:assert/strict";
import { httpLogin, type ServerProcess, startServer } from "./_process.ts";

const PASSWORD = "fifo-test-password-1";

/** A request that gives up after `ms`: the status and body, or "timeout". */
async function timed(url: string, token: string, ms = 10_000): Promise<string> {
  try {
    const res = await fetch(url, { headers: { "X-Auth": token }, signal: AbortSignal.timeout(ms) });
    return `${res.status} ${await res.text()}`;
  } catch (err) {
    return `timeout (${(err as Error).name})`;
  }
}

function mkfifo(path: string): void {
  const out = new Deno.Command("mkfifo", { args: [path] }).outputSync();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

async function untilLogged(server: ServerProcess, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!pattern.test(server.log()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.match(server.log(), pattern);
}

Deno.test("a named pipe made after start leaves folder sizes, searches, listings and /health answering, and SIGTERM stops the server", async () => {
  const dir = await Deno.makeTempDir();
  let server: ServerProcess | null = null;
  try {
    await Deno.mkdir(`${dir}/root/big`, { recursive: true });
    // Big enough for the listing cache (256 entries), which watches the folder.
    for (let i = 0; i < 300; i++) await Deno.writeTextFile(`${dir}/root/big/f${i}.txt`, "x");
    server = await startServer(
      ["--root", `${dir}/root`, "--database", `${dir}/db.kv`, "--cache-dir", `${dir}/cache`],
      { FB_ADMIN_PASSWORD: PASSWORD },
      { source: true },
    );
    assert.ok(server.port, server.log());
    const base = `http://127.0.0.1:${server.port}`;
    const login = await httpLogin(server.port, "admin", PASSWORD);
    assert.equal(login.status, 200, login.text);
    const token = login.text;
    // The index has walked the tree and then registers its recursive watch.
    await untilLogged(server, /search index: \d+ entries indexed/);
    await new Promise((r) => setTimeout(r, 500));
    assert.match(await timed(`${base}/api/resources/big/`, token), /^200 /);
    assert.match(await timed(`${base}/api/foldersize/`, token), /^200 .*"type":"done".*"files":300/);

    mkfifo(`${dir}/root/big/pipe`);
    await new Promise((r) => setTimeout(r, 300));
    assert.match(await timed(`${base}/health`, token), /^200 /, "after the pipe was made");
    const size = await timed(`${base}/api/foldersize/`, token);
    assert.match(size, /^200 .*"type":"done"/, "folder size");
    mkfifo(`${dir}/root/big/pipe2`);
    assert.match(
      await timed(`${base}/api/foldersize/big/`, token),
      /^200 .*"type":"done"/,
      "folder size again",
    );
    assert.match(await timed(`${base}/api/search/?query=pipe`, token), /^200 .*pipe/, "search");
    assert.match(await timed(`${base}/api/resources/big/`, token), /^200 .*pipe2/, "listing");
    assert.match(await timed(`${base}/health`, token), /^200 /, "at the end");

    const stopped = await server.terminate(5_000);
    server = null;
    assert.ok(stopped, "SIGTERM stopped the server within 5 s");
  } finally {
    if (server !== null) await server.terminate(0);
    await Deno.remove(dir, { recursive: true });
  }
});
