/**
 * Folder downloads never end silently short: over a real port, an entry that cannot be delivered (a tree
 * deeper than PATH_MAX, a file deleted between listing and reading) cuts the connection, so the client's
 * body read rejects instead of seeing a complete 200, and the server logs one warning naming the entry.
 */
import assert from "node:assert/strict";
import { PREFETCH_DEPTH } from "../../lib/archive/prefetch.ts";
import { onServeError } from "../../lib/serve_error.ts";
import { type TestApp, testApp } from "../_helpers.ts";

interface Served {
  url: string;
  /** Log lines written while serving (console.error is where lib/log.ts writes warnings). */
  lines: string[];
  close(): Promise<void>;
}

function serve(t: TestApp): Served {
  const lines: string[] = [];
  // deno-lint-ignore no-console -- the test captures the server's log lines
  const original = console.error;
  // deno-lint-ignore no-console -- the test captures the server's log lines
  console.error = (...args: unknown[]) => lines.push(args.map(String).join(" "));
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {}, onError: onServeError },
    t.app.fetch,
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    lines,
    async close() {
      await server.shutdown();
      // deno-lint-ignore no-console -- restoring the captured writer
      console.error = original;
    },
  };
}

async function app(): Promise<TestApp> {
  return await testApp({ users: [{ username: "u", perm: { download: true }, scope: "/u" }] });
}

/** Reads a whole body; resolves with its size or rejects when the connection is cut. */
async function drain(body: ReadableStream<Uint8Array>): Promise<number> {
  let n = 0;
  for await (const chunk of body) n += chunk.length;
  return n;
}

const SEGMENT = "d".repeat(200);

Deno.test("a folder deeper than PATH_MAX fails the zip and tar.gz download instead of truncating it", async () => {
  const t = await app();
  const s = serve(t);
  try {
    const deep = `${t.root}/u/deep`;
    await Deno.mkdir(deep, { recursive: true });
    await Deno.writeTextFile(`${deep}/a.txt`, "first");
    // 30 levels of 200-byte names (over 6000 bytes), built with relative steps: no absolute path that long
    // can be passed to mkdir.
    const script =
      'cd "$1" && for i in $(seq 1 30); do mkdir "$2" && cd -P "$2" || exit 1; done && echo x > leaf';
    const made = await new Deno.Command("sh", { args: ["-c", script, "sh", deep, SEGMENT] }).output();
    assert.equal(made.code, 0, new TextDecoder().decode(made.stderr));
    for (const algo of ["zip", "targz"]) {
      s.lines.length = 0;
      const r = await fetch(`${s.url}/api/raw/deep?algo=${algo}`, { headers: { "X-Auth": t.tokens.u } });
      assert.equal(r.status, 200, algo);
      await assert.rejects(drain(r.body!), `${algo}: the body must not end normally`);
      const warning = s.lines.find((l) => l.includes("WARN") && l.includes("response aborted"));
      assert.ok(warning, `${algo}: a warning is logged (got ${s.lines.length} lines)`);
      assert.match(warning, new RegExp(`Cannot archive "(${SEGMENT}/)+${SEGMENT}": .*too long`));
      assert.ok(!s.lines.some((l) => l.includes("ERROR")), "not an error: the server is fine");
    }
  } finally {
    await s.close();
    await t.close();
  }
});

/** A raw HTTP/1.1 GET whose reading the test paces (fetch reads ahead into memory, the kernel does not). */
async function rawGet(url: string, path: string, token: string) {
  const { hostname, port } = new URL(url);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  await conn.write(
    new TextEncoder().encode(
      `GET ${path} HTTP/1.1\r\nHost: x\r\nX-Auth: ${token}\r\nConnection: close\r\n\r\n`,
    ),
  );
  const received: Uint8Array[] = [];
  let size = 0;
  return {
    /** Reads until at least `n` bytes arrived in all, or the end. */
    async readAtLeast(n: number): Promise<void> {
      const buf = new Uint8Array(64 * 1024);
      while (size < n) {
        const got = await conn.read(buf);
        if (got === null) return;
        received.push(buf.slice(0, got));
        size += got;
      }
    },
    /** Reads to the end (a reset counts as the end) and returns everything as latin1 text. */
    async rest(): Promise<string> {
      try {
        await this.readAtLeast(Infinity);
      } catch (err) {
        if (!(err instanceof Deno.errors.ConnectionReset)) throw err;
      }
      conn.close();
      const all = new Uint8Array(size);
      let at = 0;
      for (const part of received) all.set(part, (at += part.length) - part.length);
      return new TextDecoder("latin1").decode(all);
    },
  };
}

Deno.test("a file deleted between listing and reading cuts the zip download: no final chunk", async () => {
  const t = await app();
  const s = serve(t);
  try {
    const dir = `${t.root}/u/many`;
    await Deno.mkdir(dir, { recursive: true });
    // A large first file (sparse: no disk used) fills the socket buffers while the client does not read, so
    // the files after it (more than the archive opens ahead) are still unopened when one is deleted.
    using big = await Deno.open(`${dir}/a-big.bin`, { write: true, create: true });
    await big.truncate(64 * 1024 * 1024);
    for (let i = 100; i < 120 + PREFETCH_DEPTH; i++) {
      await Deno.writeTextFile(`${dir}/f${i}.txt`, `file ${i}`);
    }
    const control = await rawGet(s.url, "/api/raw/many?algo=zip", t.tokens.u);
    const whole = await control.rest();
    assert.match(whole, /^HTTP\/1\.1 200 /);
    assert.match(whole, /transfer-encoding: chunked/i);
    assert.ok(whole.endsWith("\r\n0\r\n\r\n"), "an intact download ends with the last chunk");
    const cut = await rawGet(s.url, "/api/raw/many?algo=zip", t.tokens.u);
    await cut.readAtLeast(64 * 1024);
    const victim = `f${115 + PREFETCH_DEPTH}.txt`;
    await Deno.remove(`${dir}/${victim}`);
    const text = await cut.rest();
    assert.match(text, /^HTTP\/1\.1 200 /);
    assert.ok(text.includes("a-big.bin") && !text.includes(victim));
    assert.ok(!text.endsWith("\r\n0\r\n\r\n"), "the chunked body must not be terminated");
    const warning = s.lines.find((l) => l.includes("WARN") && l.includes("response aborted"));
    assert.match(warning ?? "", new RegExp(`Cannot archive "${victim.replace(".", "\\.")}": .*No such file`));
  } finally {
    await s.close();
    await t.close();
  }
});

Deno.test("a client that stops reading an archive is not logged as a warning", async () => {
  const t = await app();
  const s = serve(t);
  try {
    const dir = `${t.root}/u/big`;
    await Deno.mkdir(dir, { recursive: true });
    using big = await Deno.open(`${dir}/a.bin`, { write: true, create: true });
    await big.truncate(64 * 1024 * 1024);
    const r = await fetch(`${s.url}/api/raw/big?algo=zip`, { headers: { "X-Auth": t.tokens.u } });
    assert.equal(r.status, 200);
    const reader = r.body!.getReader();
    await reader.read();
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(s.lines.filter((l) => l.includes("WARN") || l.includes("ERROR")), []);
  } finally {
    await s.close();
    await t.close();
  }
});
