import assert from "node:assert/strict";
import {
  escapeNonAscii,
  isEverythingFresh,
  isServerBundleFresh,
  lazyNodeRequire,
  newestServerSource,
  newestSources,
  SERVER_BUNDLE,
} from "./server_bundle.ts";
import { newestMtimeSync } from "./_walk.ts";
import { isBuildFresh } from "./build.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

Deno.test("newestMtimeSync: newest kept file, skipping dot-names and skipped folders", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/lib/deep`, { recursive: true });
    await Deno.mkdir(`${dir}/node_modules`);
    await Deno.mkdir(`${dir}/.git`);
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    const files: [string, number][] = [
      ["lib/a.ts", 1],
      ["lib/deep/b.tsx", 2],
      ["lib/deep/c.md", 9],
      ["node_modules/x.ts", 8],
      [".git/y.ts", 7],
    ];
    for (const [f, s] of files) {
      await Deno.writeTextFile(`${dir}/${f}`, "x");
      await Deno.utime(`${dir}/${f}`, at(s), at(s));
    }
    const keep = (n: string) => /\.tsx?$/.test(n);
    assert.equal(newestMtimeSync(dir, keep, new Set(["node_modules"])), at(2).getTime());
    assert.equal(newestMtimeSync(dir, () => true, new Set(["node_modules"])), at(9).getTime());
    assert.equal(newestMtimeSync(`${dir}/missing`, keep), 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("newestSources: one walk gives what the island and server checks find on their own", async () => {
  const merged = newestSources(ROOT);
  assert.equal(merged.server, newestServerSource(ROOT));
  const client = Math.max(
    ...["islands", "components", "client", "lib", "framework", "locales"].map((d) =>
      newestMtimeSync(`${ROOT}/${d}`, () => true)
    ),
  );
  assert.equal(merged.client, client, "a client folder holds a folder the server walk skips?");
  assert.equal(
    await isEverythingFresh(ROOT),
    await isBuildFresh(ROOT) && await isServerBundleFresh(ROOT),
  );
});

Deno.test("newestSources: an edited island or server file makes the start's check stale", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    for (
      const [f, s] of [["islands/A.tsx", 1], ["lib/b.ts", 2], ["routes/c.tsx", 3], ["tests/d.ts", 9]] as const
    ) {
      await Deno.mkdir(`${dir}/${f.slice(0, f.indexOf("/"))}`, { recursive: true });
      await Deno.writeTextFile(`${dir}/${f}`, "x");
      await Deno.utime(`${dir}/${f}`, at(s), at(s));
    }
    assert.deepEqual(newestSources(dir), { server: at(3).getTime(), client: at(2).getTime() });
    await Deno.utime(`${dir}/islands/A.tsx`, at(5), at(5));
    assert.deepEqual(newestSources(dir), { server: at(5).getTime(), client: at(5).getTime() });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** The files `entry` imports statically, transitively (relative imports within `dir`), with their text. */
async function staticClosure(dir: string, entry: string): Promise<Map<string, string>> {
  const seen = new Map<string, string>();
  const todo = [entry];
  while (todo.length) {
    const name = todo.pop()!;
    if (seen.has(name)) continue;
    const text = await Deno.readTextFile(`${dir}/${name}`);
    seen.set(name, text);
    for (const m of text.matchAll(/^(?:import|export)\b[^;]*?from "\.\/([^"]+)";?$/gms)) todo.push(m[1]);
    for (const m of text.matchAll(/^import "\.\/([^"]+)";$/gm)) todo.push(m[1]);
  }
  return seen;
}

Deno.test("escapeNonAscii: ASCII only, and every snippet evaluates to the same value", () => {
  const snippets = [
    `"a→b é"`,
    "`x→${1 + 1}ü`",
    `/[é-ü]+/.exec("aéüz")[0]`,
    `/😀+/u.test("😀😀")`,
    `"😀".length`,
    `"\\é"`,
    `"\\\\é"`,
    `(() => { const café = 2; return café; })()`,
    `1 /* → comment */ + 1`,
  ];
  for (const code of snippets) {
    const escaped = escapeNonAscii(code);
    assert.doesNotMatch(escaped, /[\x80-\uffff]/, escaped);
    assert.deepEqual(new Function(`return ${escaped}`)(), new Function(`return ${code}`)(), code);
  }
  assert.equal(escapeNonAscii("plain"), "plain");
});

Deno.test("lazyNodeRequire: deno bundle's require shim is made on its first call, other text is left alone", async () => {
  // What `deno bundle` (Deno 2.9) writes at the top of its shared runtime chunk.
  const eager = 'import { createRequire as __deno_internal_createRequire } from "node:module";\n' +
    "var __require = __deno_internal_createRequire(import.meta.url);\n";
  const lazy = lazyNodeRequire(`${eager}export { __require };\n`);
  assert.doesNotMatch(lazy, /\bimport\b.*"node:module"/);
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/chunk.js`, lazy);
    const { __require } = await import(`file://${dir}/chunk.js`);
    assert.equal(__require("node:path").posix.join("a", "b"), "a/b");
    assert.equal(typeof __require("node:util").format, "function");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const other = 'import { x } from "./chunk.js";\nvar __require = somethingElse;\n';
  assert.equal(lazyNodeRequire(other), other);
});

Deno.test("isServerBundleFresh: false without a bundle or stamp", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/main.ts`, "");
    assert.equal(await isServerBundleFresh(dir), false);
    await Deno.mkdir(`${dir}/_build`);
    await Deno.writeTextFile(`${dir}/_build/server.stamp`, String(Date.now() + 60_000));
    assert.equal(await isServerBundleFresh(dir), false, "a stamp without its bundle is not fresh");
    await Deno.writeTextFile(`${dir}/${SERVER_BUNDLE}`, "");
    assert.equal(await isServerBundleFresh(dir), true);
    await Deno.writeTextFile(`${dir}/_build/server.stamp`, String(newestServerSource(dir) - 1));
    assert.equal(await isServerBundleFresh(dir), false, "a source newer than the stamp makes it stale");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "deno task start runs the bundled server: pages, islands, static files and locales resolve from _build/",
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    // More folders than the search index watches on the server's thread: its watcher runs in the worker.
    for (let i = 0; i <= 1_000; i++) await Deno.mkdir(`${dir}/root/d${i}`, { recursive: true });
    await Deno.mkdir(`${dir}/root/a`);
    await Deno.writeTextFile(`${dir}/root/a/one.txt`, "bundled");
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "start.ts", "--port", "0", "--root", `${dir}/root`, "--database", `${dir}/kv`],
      cwd: ROOT,
      env: { FB_ADMIN_PASSWORD: "bundle-test-password-123" },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let log = "";
    const drain = async (s: ReadableStream<Uint8Array<ArrayBuffer>>) => {
      for await (const t of s.pipeThrough(new TextDecoderStream())) log += t;
    };
    const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
    // The first start may build the bundles (tens of seconds on a loaded machine): wait for the listen line.
    const watchdog = setTimeout(() => child.kill("SIGKILL"), 240_000);
    try {
      let port = 0;
      while (!port) {
        await new Promise((r) => setTimeout(r, 100));
        port = Number(log.match(/listening on http:\/\/[^:]+:(\d+)\//)?.[1] ?? 0);
        assert.ok(!log.includes("Starting from source"), log);
      }
      const base = `http://127.0.0.1:${port}`;
      let health = 0;
      while (health !== 200) {
        const res = await fetch(`${base}/health`);
        await res.body?.cancel();
        health = res.status;
        if (health !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      const page = await fetch(`${base}/login`);
      const html = await page.text();
      assert.equal(page.status, 200);
      const script = html.match(/<script type="module" src="([^"]+\/Login\.js)"/)?.[1];
      assert.ok(script, "the login page names its island bundle");
      const island = await fetch(new URL(script, base));
      await island.body?.cancel();
      assert.equal(island.status, 200, "island bundles are served from _build/islands");
      const css = html.match(/<link rel="stylesheet" href="([^"]+)"/)?.[1];
      assert.ok(css, "the page links a stylesheet");
      const sheet = await fetch(new URL(css, base));
      await sheet.body?.cancel();
      assert.equal(sheet.status, 200, "static files are served from static/");
      const de = await fetch(`${base}/login`, { headers: { "Accept-Language": "de" } });
      assert.match(await de.text(), /lang="de"/, "locales are read from locales/");
      assert.equal(await isServerBundleFresh(ROOT), true);
      // Modules loaded on first use work from the bundle's chunks: the zip writer, then the extractors.
      const login = await fetch(`${base}/api/login`, {
        method: "POST",
        body: JSON.stringify({ username: "admin", password: "bundle-test-password-123" }),
      });
      const auth = { "X-Auth": await login.text() };
      assert.equal(login.status, 200);
      const zip = await fetch(`${base}/api/raw/a?algo=zip`, { headers: auth });
      assert.equal(zip.status, 200);
      await Deno.writeFile(`${dir}/root/a.zip`, new Uint8Array(await zip.arrayBuffer()));
      const extracted = await fetch(`${base}/api/extract/a.zip?destination=/b`, {
        method: "POST",
        headers: auth,
      });
      assert.equal(extracted.status, 200, await extracted.clone().text());
      assert.doesNotMatch(await extracted.text(), /error/i);
      const found = await Array.fromAsync(Deno.readDir(`${dir}/root/b`));
      const text = await Deno.readTextFile(
        `${dir}/root/b/${found.some((e) => e.name === "a") ? "a/" : ""}one.txt`,
      );
      assert.equal(text, "bundled");
      // One byte per character on V8's heap: the bundle is ASCII (escapeNonAscii).
      assert.doesNotMatch(await Deno.readTextFile(`${ROOT}/_build/server.js`), /[\x80-\uffff]/);
      // What the server loads at start (the bundle and the chunks it imports statically) leaves out code that
      // only some requests or only the browser need: tus-js-client's Node build (and with it Node's http
      // layer), the archive writers, zip.js, and any Node module (Deno's Node layer: lazyNodeRequire).
      const loaded = await staticClosure(`${ROOT}/_build`, "server.js");
      for (const [file, text] of loaded) {
        assert.doesNotMatch(text, /from "node:|tus-js-client|lib\/archive\/zip\.ts/, file);
      }
      // Files loaded by URL at run time (the search index's watcher worker) resolve from the bundle too.
      const deadline = Date.now() + 60_000;
      while (!/search index: watching .* in a worker/.test(log) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        assert.doesNotMatch(log, /Module not found|Uncaught|watcher failed/, log);
      }
      assert.match(log, /search index: watching .* in a worker/, log);
      assert.doesNotMatch(log, /Module not found|Uncaught|watcher failed/, log);
    } finally {
      clearTimeout(watchdog);
      child.kill("SIGTERM");
      await child.status;
      await drained;
      await Deno.remove(dir, { recursive: true });
    }
  },
});
