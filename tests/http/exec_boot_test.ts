/**
 * `--enable-exec` where namespaces cannot be created (the server started inside a user namespace that forbids
 * nested ones): the server refuses to start with one line and exit 2, unless `--exec-unconfined` is given, in
 * which case it starts and warns.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../..", import.meta.url).pathname;

function serverWithoutNamespaces(dir: string, extra: string[]) {
  return new Deno.Command("bwrap", {
    args: [
      "--dev-bind",
      "/",
      "/",
      "--unshare-user",
      "--disable-userns",
      "--die-with-parent",
      "--",
      Deno.execPath(),
      "run",
      "-A",
      "main.ts",
      "--enable-exec",
      "--port",
      "0",
      "--database",
      `${dir}/db.kv`,
      ...extra,
    ],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  });
}

Deno.test("exec boot: without working namespaces --enable-exec refuses to start (one line, exit 2)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = await serverWithoutNamespaces(dir, []).output();
    assert.equal(out.code, 2);
    const err = new TextDecoder().decode(out.stderr).trim().split("\n");
    assert.equal(err.length, 1, err.join("\n"));
    assert.match(err[0], /ERROR --enable-exec: bwrap cannot create a sandbox here: .*--exec-unconfined/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "exec boot: with --exec-unconfined it starts and warns that commands run unconfined",
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const child = serverWithoutNamespaces(dir, ["--exec-unconfined"]).spawn();
    let log = "";
    const decoder = new TextDecoder();
    const collect = (s: ReadableStream<Uint8Array>) =>
      s.pipeTo(new WritableStream({ write: (c) => void (log += decoder.decode(c, { stream: true })) }));
    const done = Promise.all([collect(child.stdout), collect(child.stderr)]);
    try {
      const end = Date.now() + 60_000;
      while (!log.includes("listening on") && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      assert.match(log, /listening on/);
      assert.match(log, /WARN {2}commands run UNCONFINED \(bwrap cannot create a sandbox here/);
    } finally {
      child.kill("SIGTERM");
      await child.status;
      await done.catch(() => {});
      await Deno.remove(dir, { recursive: true });
    }
  },
});
