import assert from "node:assert/strict";
import { join } from "node:path";
import type { ArchiveEntry } from "./entry.ts";
import { fileReadable } from "./file_stream.ts";
import { prepareEntries } from "./prefetch.ts";
import { openFdsUnder } from "./_testing.ts";

const base = { isDir: false, mtime: new Date(0), mode: 0o644 };
const tick = () => new Promise((r) => setTimeout(r, 5));

function bytesOf(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

async function drain(entries: AsyncIterable<ArchiveEntry>, options = {}): Promise<string[]> {
  const out: string[] = [];
  for await (const p of prepareEntries(entries, options)) {
    const data = p.bytes ?? (p.stream ? new Uint8Array(await new Response(p.stream).arrayBuffer()) : null);
    out.push(
      `${p.name}${data === null ? "/" : `=${new TextDecoder().decode(data)}`}${p.bytes ? " (whole)" : ""}`,
    );
  }
  return out;
}

/** A source that counts how many entries were pulled from it. */
function counting(list: ArchiveEntry[]) {
  const state = { pulled: 0, returned: false };
  const entries = (async function* () {
    try {
      for (const e of list) {
        state.pulled++;
        yield e;
      }
    } finally {
      state.returned = true;
    }
  })();
  return { state, entries };
}

Deno.test("prepareEntries() keeps the entries' order, whatever order their opens settle in", async () => {
  const delays = [30, 0, 20, 5, 0];
  const list: ArchiveEntry[] = [
    { ...base, name: "dir", isDir: true, size: 0 },
    ...delays.map((ms, i): ArchiveEntry => ({
      ...base,
      name: `s${i}`,
      size: 1,
      open: async () => {
        await new Promise((r) => setTimeout(r, ms));
        return new Response(`${i}`).body!;
      },
    })),
    { ...base, name: "w", size: 1, readWhole: () => bytesOf("W") },
    // readWhole declines (null): open() is used instead.
    {
      ...base,
      name: "declined",
      size: 1,
      readWhole: () => null,
      open: () => Promise.resolve(new Response("D").body!),
    },
    { ...base, name: "../refused", size: 1, readWhole: () => bytesOf("x") },
    { ...base, name: "nothing", size: 0 },
  ];
  for (const depth of [1, 2, 32]) {
    assert.deepEqual(await drain(counting(list).entries, { depth }), [
      "dir/",
      "s0=0",
      "s1=1",
      "s2=2",
      "s3=3",
      "s4=4",
      "w=W (whole)",
      "declined=D",
      "nothing=",
    ], `depth ${depth}`);
  }
});

Deno.test("prepareEntries() holds at most maxBytes read whole, the entry being written included (a larger one alone)", async () => {
  const sizes = [30, 30, 30, 30, 250, 30, 30, 30, 30, 30];
  let held = 0;
  let peak = 0;
  const list = sizes.map((size, i): ArchiveEntry => ({
    ...base,
    name: `f${i}`,
    size,
    readWhole: () => {
      held += size;
      peak = Math.max(peak, held);
      if (size <= 100) assert.ok(held <= 100, `reading f${i} would hold ${held} bytes`);
      else assert.equal(held, size, "an entry over the budget is read alone");
      return new Uint8Array(size);
    },
  }));
  const seen: string[] = [];
  for await (const p of prepareEntries(counting(list).entries, { depth: 100, maxBytes: 100, slab: 30 })) {
    // A slow writer: the reader would run far ahead if nothing held it back.
    await tick();
    held -= p.bytes!.length;
    seen.push(p.name);
  }
  assert.deepEqual(seen, sizes.map((_, i) => `f${i}`));
  assert.equal(peak, 250);
});

Deno.test("prepareEntries() holds at most `depth` entries ahead", async () => {
  const list = Array.from({ length: 20 }, (_, i): ArchiveEntry => ({ ...base, name: `f${i}`, size: 0 }));
  const { state, entries } = counting(list);
  const iterator = prepareEntries(entries, { depth: 4 });
  await iterator.next();
  await tick();
  assert.ok(state.pulled <= 1 + 4 + 1, `pulled ${state.pulled}`);
  await iterator.return(undefined);
  assert.equal(state.returned, true);
});

Deno.test("prepareEntries(): a failure ahead surfaces at its own entry, after the entries before it", async () => {
  const failures: [string, Partial<ArchiveEntry>, RegExp][] = [
    ["readWhole throws", {
      readWhole: () => {
        throw new Error("disk on fire");
      },
    }, /Cannot archive "b": disk on fire/],
    [
      "open rejects",
      { open: () => Promise.reject(new Deno.errors.NotFound("gone")) },
      /Cannot archive "b": gone/,
    ],
    ["declined, then open rejects", {
      readWhole: () => null,
      open: () => Promise.reject(new Deno.errors.NotFound("gone")),
    }, /Cannot archive "b": gone/],
  ];
  for (const [what, failing, expected] of failures) {
    const list: ArchiveEntry[] = [
      {
        ...base,
        name: "a",
        size: 1,
        open: () => new Promise((r) => setTimeout(() => r(new Response("A").body!), 20)),
      },
      { ...base, name: "b", size: 1, ...failing },
      { ...base, name: "c", size: 1, readWhole: () => bytesOf("C") },
    ];
    const got: string[] = [];
    await assert.rejects(
      async () => {
        for await (const p of prepareEntries(counting(list).entries)) {
          got.push(p.name);
          await p.stream?.cancel();
        }
      },
      expected,
      what,
    );
    assert.deepEqual(got, ["a"], what);
  }
  // The source itself failing: after the entries it gave.
  const source = (async function* (): AsyncGenerator<ArchiveEntry> {
    yield { ...base, name: "a", size: 1, readWhole: () => bytesOf("A") };
    throw new Error("walk failed");
  })();
  const got: string[] = [];
  await assert.rejects(async () => {
    for await (const p of prepareEntries(source)) got.push(p.name);
  }, /walk failed/);
  assert.deepEqual(got, ["a"]);
});

Deno.test("prepareEntries(): stopping early stops reading ahead and closes every file opened ahead", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "prefetch_" }));
  try {
    const list: ArchiveEntry[] = [];
    let reads = 0;
    for (let i = 0; i < 40; i++) {
      const path = join(tmp, `f${i}`);
      const size = i % 2 ? 100 : 70_000;
      await Deno.writeFile(path, new Uint8Array(size).fill(i));
      list.push({
        ...base,
        name: `f${i}`,
        size,
        // Odd ones are read whole; even ones opened (streams hold descriptors).
        readWhole: i % 2 ? () => (reads++, Deno.readFileSync(path)) : undefined,
        open: async () => fileReadable(await Deno.open(path), { size }),
      });
    }
    for (const maxBytes of [150, 4 * 1024 * 1024]) {
      reads = 0;
      const { state, entries } = counting(list);
      const iterator = prepareEntries(entries, { depth: 8, maxBytes });
      const first = await iterator.next();
      assert.equal(first.done, false);
      await tick();
      assert.ok(openFdsUnder(tmp) > 0, "files are open ahead");
      const pulled = state.pulled;
      await first.value!.stream?.cancel();
      await iterator.return(undefined);
      await tick();
      assert.equal(state.returned, true, "the source was closed");
      assert.equal(state.pulled, pulled, "nothing more was pulled after the stop");
      const readsAfter = reads;
      await tick();
      assert.equal(reads, readsAfter, "nothing more was read after the stop");
      for (let i = 0; i < 100 && openFdsUnder(tmp) > 0; i++) await tick();
      assert.equal(openFdsUnder(tmp), 0, `every file is closed (maxBytes ${maxBytes})`);
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("prepareEntries(): an abort while the reader waits for room ends without reading on", async () => {
  const controller = new AbortController();
  let reads = 0;
  const list = Array.from({ length: 10 }, (_, i): ArchiveEntry => ({
    ...base,
    name: `f${i}`,
    size: 60,
    readWhole: () => (reads++, new Uint8Array(60)),
  }));
  const iterator = prepareEntries(counting(list).entries, { signal: controller.signal, maxBytes: 100 });
  await iterator.next();
  await tick();
  const before = reads;
  assert.ok(before <= 3, `read ${before} entries ahead within 100 bytes`);
  controller.abort(new Error("client left"));
  await assert.rejects(() => iterator.next(), /client left/);
  await tick();
  assert.equal(reads, before);
});

Deno.test("prepareEntries() lends readWhole a few reused buffers, never one per file", async () => {
  const lent = new Set<ArrayBufferLike>();
  const list = Array.from({ length: 300 }, (_, i): ArchiveEntry => ({
    ...base,
    name: `f${i}`,
    size: 1000 + i,
    readWhole: (buffer) => {
      lent.add(buffer.buffer);
      assert.ok(buffer.length >= 1000 + i);
      return buffer.subarray(0, 1000 + i).fill(i & 0xff);
    },
  }));
  let n = 0;
  for await (
    const p of prepareEntries(counting(list).entries, { depth: 16, maxBytes: 256 * 1024, slab: 64 * 1024 })
  ) {
    // Still intact when handed over, though the buffer is reused afterwards.
    assert.equal(p.bytes!.length, 1000 + n);
    assert.ok(p.bytes!.every((b) => b === (n & 0xff)), `content of f${n}`);
    n++;
    if (n % 7 === 0) await tick();
  }
  assert.equal(n, 300);
  assert.ok(lent.size <= 256 / 64 + 1, `${lent.size} buffers for 300 files`);
});
