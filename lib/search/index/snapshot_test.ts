import assert from "node:assert/strict";
import { ctxFor, makeTree, withTempRoot } from "../../fs/_testing.ts";
import { type LogLevel, setLogSink } from "../../log.ts";
import { parseSearchQuery, searchFiles } from "../mod.ts";
import { SearchIndex } from "./mod.ts";
import { decodeSnapshot, SNAPSHOT_VERSION } from "./snapshot.ts";

const TREE = {
  "a/cat.jpg": "",
  "a/b/cat2.png": "",
  "a/b/dog.txt": "",
  ".hidden/cat.jpg": "",
  "é/Ω cat.md": "",
  "z/y/x/w/cat.txt": "",
};

/** Runs `fn` with log lines captured (and kept off the console). */
async function captured<T>(fn: () => Promise<T>): Promise<{ result: T; lines: [LogLevel, string][] }> {
  const lines: [LogLevel, string][] = [];
  const previous = setLogSink((level, line) => lines.push([level, line]));
  try {
    return { result: await fn(), lines };
  } finally {
    setLogSink(previous);
  }
}

/** Every path the index reports for "" (everything) and for "cat", through the public search. */
async function answers(root: string, index: SearchIndex): Promise<string[]> {
  const ctx = ctxFor(root, { foldCase: false });
  const out: string[] = [];
  for (const q of ["", "cat"]) {
    for await (const hit of searchFiles(ctx, "/", parseSearchQuery(q), { index })) {
      out.push(`${q}:${hit.path}`);
    }
  }
  return out;
}

/** Walks the tree (no index): what every answer must equal. */
async function walked(root: string): Promise<string[]> {
  const ctx = ctxFor(root, { foldCase: false });
  const out: string[] = [];
  for (const q of ["", "cat"]) {
    for await (const hit of searchFiles(ctx, "/", parseSearchQuery(q))) out.push(`${q}:${hit.path}`);
  }
  return out;
}

/** Sets every folder's mtime an hour back, so the reconciliation must notice changes by mtime alone. */
async function ageFolders(dir: string): Promise<void> {
  const past = new Date(Date.now() - 3600_000);
  for await (const e of Deno.readDir(dir)) if (e.isDirectory) await ageFolders(`${dir}/${e.name}`);
  await Deno.utime(dir, past, past);
}

/** Builds the index of `root` with a snapshot at `snap`, closes it (which saves) and returns the bytes. */
async function saved(root: string, snap: string): Promise<Uint8Array> {
  const index = new SearchIndex(root, { reconcileMs: 0, watch: false, snapshot: snap });
  await captured(async () => {
    await index.start();
    await index.close();
  });
  return await Deno.readFile(snap);
}

Deno.test("a snapshot round-trips: the restarted index loads it and answers like a walk", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(root, TREE);
    const snap = `${outside}/search.snap`;
    const bytes = await saved(root, snap);
    assert.ok(typeof await decodeSnapshot(bytes) !== "string");
    const index = new SearchIndex(root, { reconcileMs: 0, watch: false, snapshot: snap });
    try {
      const { lines } = await captured(async () => {
        await index.start();
        await index.settle();
      });
      assert.equal(index.stats().fromSnapshot, true);
      assert.deepEqual(lines.filter(([l]) => l === "warn" || l === "error"), []);
      assert.deepEqual(await answers(root, index), await walked(root));
    } finally {
      await captured(() => index.close());
    }
  });
});

Deno.test("changes made while the server was down are found after the restart's reconciliation", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(root, { ...TREE, "old/gone.txt": "", "m/moveme.txt": "" });
    await ageFolders(root);
    const snap = `${outside}/search.snap`;
    await saved(root, snap);
    // While down: a file created deep down, one renamed across folders, a folder deleted.
    await Deno.writeTextFile(`${root}/z/y/x/w/newcat.txt`, "");
    await Deno.rename(`${root}/m/moveme.txt`, `${root}/a/b/moved-cat.txt`);
    await Deno.remove(`${root}/old`, { recursive: true });
    const want = await walked(root);
    const index = new SearchIndex(root, { reconcileMs: 0, watch: false, snapshot: snap });
    try {
      await captured(async () => {
        await index.start();
        assert.equal(index.stats().fromSnapshot, true);
        // Poll until the background reconciliation has caught up; generous deadline, nothing timed.
        const deadline = Date.now() + 30_000;
        while (JSON.stringify(await answers(root, index)) !== JSON.stringify(want) && Date.now() < deadline) {
          await index.settle();
        }
      });
      const got = await answers(root, index);
      assert.deepEqual(got, want);
      assert.ok(got.includes(":z/y/x/w/newcat.txt") && got.includes("cat:a/b/moved-cat.txt"));
      assert.ok(!got.some((p) => p.includes("moveme") || p.includes("old/")));
    } finally {
      await captured(() => index.close());
    }
  });
});

/** Recomputes the checksum of a tampered snapshot, so the structural checks are what must catch it. */
async function resealed(bytes: Uint8Array): Promise<Uint8Array> {
  const out = bytes.slice();
  out.set(new Uint8Array(await crypto.subtle.digest("SHA-256", out.subarray(60))), 28);
  return out;
}

function withU32(bytes: Uint8Array, at: number, value: number): Uint8Array {
  const out = bytes.slice();
  new DataView(out.buffer).setUint32(at, value, true);
  return out;
}

Deno.test("a corrupt, truncated, foreign or stale snapshot is ignored with one warning and a fresh walk", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(root, TREE);
    const snap = `${outside}/search.snap`;
    const good = await saved(root, snap);
    const n = new DataView(good.buffer).getUint32(12, true);
    const rootLen = new DataView(good.buffer).getUint32(20, true);
    const parents = 60 + rootLen, flags = parents + 4 * n, names = good.length - 20;
    await withTempRoot(async ({ root: other, outside: otherOut }) => {
      await makeTree(other, TREE);
      const foreign = await saved(other, `${otherOut}/s.snap`);
      const cases: [string, Uint8Array][] = [
        ["zero-length", new Uint8Array()],
        ["wrong magic", new TextEncoder().encode("SQLite format 3\0" + "x".repeat(100))],
        ["stale format version", withU32(good, 8, SNAPSHOT_VERSION + 1)],
        ["foreign root", foreign],
        ["huge entry count", withU32(good, 12, 0xffffffff)],
        ["huge name length", withU32(good, 24, 0xfffffff0)],
        ["huge root length", await resealed(withU32(good, 20, 0x7fffffff))],
        ["parent after child", await resealed(withU32(good, parents + 4, 5))],
        ["parent out of range", await resealed(withU32(good, parents + 8, n - 1))],
        ["unknown flags", await resealed(Object.assign(good.slice(), { [flags + 1]: 0x40 }))],
        ["slash in a name", await resealed(Object.assign(good.slice(), { [names]: 0x2f }))],
        ["NUL moved in names", await resealed(Object.assign(good.slice(), { [good.length - 1]: 0x41 }))],
      ];
      for (const at of [1, 8, 30, 59, 60, parents + 3, flags, Math.floor(good.length / 2), good.length - 1]) {
        cases.push([`truncated at ${at}`, good.slice(0, at)]);
        cases.push([`flipped byte ${at}`, Object.assign(good.slice(), { [at]: good[at] ^ 0x5a })]);
      }
      for (const [label, bytes] of cases) {
        await Deno.writeFile(snap, bytes);
        const index = new SearchIndex(root, { reconcileMs: 0, watch: false, snapshot: snap });
        const { lines } = await captured(async () => {
          await index.start();
          return await answers(root, index);
        }).then(async (r) => {
          assert.deepEqual(r.result, await walked(root), label);
          return r;
        });
        await captured(() => index.close());
        assert.equal(index.stats().fromSnapshot, false, label);
        const warned = lines.filter(([l]) => l === "warn" || l === "error");
        assert.equal(warned.length, 1, `${label}: ${JSON.stringify(warned)}`);
        assert.match(warned[0][1], /WARN.*ignoring the snapshot/, label);
      }
      // The fresh walk wrote a good snapshot again.
      assert.equal(typeof await decodeSnapshot(await Deno.readFile(snap)), "object");
    });
  });
});

Deno.test("no snapshot file: a fresh walk without a warning, and the snapshot is written", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(root, TREE);
    const snap = `${outside}/sub/dir/search.snap`;
    const index = new SearchIndex(root, { reconcileMs: 0, watch: false, snapshot: snap });
    const { lines } = await captured(async () => {
      await index.start();
      await index.settle();
    });
    try {
      assert.deepEqual(lines.filter(([l]) => l === "warn" || l === "error"), []);
      assert.equal(typeof await decodeSnapshot(await Deno.readFile(snap)), "object");
      assert.ok(index.stats().snapshotBytes > 60);
    } finally {
      await captured(() => index.close());
    }
  });
});

Deno.test("the snapshot is written again by the periodic save once the index changed", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(root, TREE);
    const snap = `${outside}/search.snap`;
    const index = new SearchIndex(root, { reconcileMs: 0, watch: false, snapshot: snap, snapshotMs: 10 });
    try {
      await captured(async () => {
        await index.start();
        await Deno.writeTextFile(`${root}/a/late-cat.txt`, "");
        await index.refresh();
        const has = async () => {
          const data = await decodeSnapshot(await Deno.readFile(snap).catch(() => new Uint8Array()));
          return typeof data !== "string" && data.names.includes("\0late-cat.txt\0");
        };
        // Poll the file until the timer has written it; generous deadline, nothing timed.
        const deadline = Date.now() + 30_000;
        while (!await has() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        assert.ok(await has());
      });
    } finally {
      await captured(() => index.close());
    }
  });
});
