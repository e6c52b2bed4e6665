import assert from "node:assert/strict";
import type { Resource } from "../types.ts";
import { TEMP_PREFIX } from "./atomic.ts";
import { type GateContext, resolveScoped } from "./gate.ts";
import { ListingCache } from "./listing_cache.ts";
import { patchToNow } from "./listing_patch.ts";
import { type DirSnapshot, scanDirectory, stampOf } from "./listing_snapshot.ts";
import { getResourceJson } from "./resources.ts";
import { referenceListing } from "./_listing_reference.ts";
import { ALL_SORTINGS, ctxFor, prng, withTempRoot } from "./_testing.ts";

function text(chunks: Uint8Array[]): string {
  const decoder = new TextDecoder();
  return chunks.map((c) => decoder.decode(c, { stream: true })).join("") + decoder.decode();
}

/** Cached listing against the plain reference listing, for every sorting. */
async function compareAll(ctx: GateContext, cache: ListingCache, what: string): Promise<void> {
  for (const sorting of ALL_SORTINGS) {
    const opts = { sorting, readHeaders: true };
    const want: Resource = await referenceListing(ctx, "/d", opts);
    const got: Resource = JSON.parse(
      text((await getResourceJson(ctx, "/d", { ...opts, listings: cache })).json!),
    );
    // The patched snapshot keeps the folder's read order, so even ties come out as after a fresh read.
    assert.equal(JSON.stringify(got), JSON.stringify(want), `${what}, ${JSON.stringify(sorting)}`);
  }
}

/** A snapshot's entries as comparable facts (ids included: later patches depend on them). */
function facts(snap: DirSnapshot): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < snap.names.length; i++) {
    const f = snap.kinds[i] === 2
      ? "link"
      : `${snap.kinds[i]} ${snap.sizes[i]} ${snap.mtimes[i]} ${snap.modes[i]} ${
        new TextDecoder().decode(
          snap.replaced.get(i) ?? snap.fragments.subarray(snap.offsets[i], snap.offsets[i + 1]),
        )
      }`;
    out.set(snap.names[i], `${f} ${snap.inos?.[i]} ${snap.dots[i]}`);
  }
  return out;
}

/** Waits until the cache's watchers have reported something since `before`, and the burst is over. */
async function eventsArrive(cache: ListingCache, before: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (cache.stats().events <= before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  for (let last = -1; last !== cache.stats().events;) {
    last = cache.stats().events;
    await new Promise((r) => setTimeout(r, 40));
  }
}

const EXTS = ["", ".txt", ".png", ".bin", ".md", ".MP4"];

Deno.test("a patched listing equals a fresh read after random creates, deletes, renames, writes and swaps", async () => {
  for (const seed of [11, 12, 13]) {
    await withTempRoot(async ({ root, outside }) => {
      const rand = prng(seed);
      const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
      const dir = `${root}/d`;
      let serial = 0;
      const fresh = () => `${pick(["a", "B", "é", ".h", "x y", "日"])}${serial++}${pick(EXTS)}`;
      const content = () =>
        rand() < 0.3
          ? new Uint8Array([0, 1, 2, 0xff].slice(0, Math.floor(rand() * 4)))
          : new TextEncoder().encode(
            "t".repeat(Math.floor(rand() * 40)),
          );
      await Deno.mkdir(dir);
      for (let i = 0; i < 300; i++) await Deno.writeFile(`${dir}/${fresh()}`, content());
      for (let i = 0; i < 6; i++) await Deno.mkdir(`${dir}/${fresh()}`);
      await Deno.symlink("missing", `${dir}/dangling`);
      await Deno.symlink(`${outside}`, `${dir}/out-link`);
      const entries = () => [...Deno.readDirSync(dir)];
      const files = () => entries().filter((e) => e.isFile).map((e) => e.name);
      const ops: [string, () => Promise<void>][] = [
        ["create", () => Deno.writeFile(`${dir}/${fresh()}`, content())],
        ["delete", () => Deno.remove(`${dir}/${pick(files())}`)],
        ["rename", () => Deno.rename(`${dir}/${pick(files())}`, `${dir}/${fresh()}`)],
        ["rename over", () => Deno.rename(`${dir}/${pick(files())}`, `${dir}/${pick(files())}`)],
        ["move out", () => Deno.rename(`${dir}/${pick(files())}`, `${outside}/${fresh()}`)],
        ["move in", async () => {
          const name = fresh();
          await Deno.writeFile(`${outside}/${name}`, content());
          await Deno.rename(`${outside}/${name}`, `${dir}/${fresh()}`);
        }],
        ["atomic replace", async () => {
          await Deno.writeFile(`${dir}/${TEMP_PREFIX}${serial++}`, content());
          const tmp = entries().find((e) => e.name.startsWith(TEMP_PREFIX))!.name;
          await Deno.rename(`${dir}/${tmp}`, `${dir}/${pick(files())}`);
        }],
        ["temp file", () => Deno.writeFile(`${dir}/${TEMP_PREFIX}${serial++}`, content())],
        ["truncate", () => Deno.truncate(`${dir}/${pick(files())}`, Math.floor(rand() * 3))],
        ["append", () => Deno.writeFile(`${dir}/${pick(files())}`, content(), { append: true })],
        ["chmod", () => Deno.chmod(`${dir}/${pick(files())}`, pick([0o600, 0o644, 0o755]))],
        ["touch", () => Deno.utime(`${dir}/${pick(files())}`, 1_600_000_000, 1_600_000_000 + rand())],
        ["mkdir", () => Deno.mkdir(`${dir}/${fresh()}`)],
        ["rmdir", async () => {
          const empty = entries().filter((e) =>
            e.isDirectory && [...Deno.readDirSync(`${dir}/${e.name}`)].length === 0
          );
          if (empty.length > 0) await Deno.remove(`${dir}/${pick(empty).name}`);
        }],
        ["write in sub-folder", async () => {
          const sub = pick(entries().filter((e) => e.isDirectory));
          if (sub) await Deno.writeTextFile(`${dir}/${sub.name}/${fresh()}`, "s");
        }],
        ["symlink swap", async () => {
          const link = entries().find((e) => e.isSymlink && e.name !== "out-link");
          if (link) await Deno.remove(`${dir}/${link.name}`);
          await Deno.symlink(pick([...files(), "missing"]), `${dir}/${link?.name ?? fresh()}`);
        }],
        ["file to symlink", async () => {
          await Deno.symlink(pick(files()), `${dir}/${TEMP_PREFIX}link`);
          await Deno.rename(`${dir}/${TEMP_PREFIX}link`, `${dir}/${pick(files())}`);
        }],
        ["symlink to file", async () => {
          const link = entries().find((e) => e.isSymlink && e.name !== "out-link");
          if (link) await Deno.writeFile(`${dir}/${TEMP_PREFIX}f`, content());
          if (link) await Deno.rename(`${dir}/${TEMP_PREFIX}f`, `${dir}/${link.name}`);
        }],
      ];
      const ctx = ctxFor(root);
      const cache = new ListingCache({ minEntries: 0 });
      try {
        const d = await resolveScoped(ctx, "/d", "read");
        await compareAll(ctx, cache, `seed ${seed}, first read`);
        // Past the racy window, then every sorting once more: all orders are kept in the snapshot.
        await new Promise((r) => setTimeout(r, 100));
        await compareAll(ctx, cache, `seed ${seed}, cached`);
        const { misses } = cache.stats();
        for (let round = 0; round < 25; round++) {
          const before = cache.stats().events;
          const done: string[] = [];
          for (let k = 1 + Math.floor(rand() * 4); k > 0; k--) {
            const [label, op] = pick(ops);
            await op();
            done.push(label);
          }
          // Once the folder's stamp moved every entry is lstat'ed; changes in place alone need their events.
          const inPlace = done.some((l) => ["truncate", "append", "chmod", "touch"].includes(l));
          const moved = done.some((l) =>
            ["create", "delete", "rename", "move out", "move in", "atomic replace", "temp file", "mkdir"]
              .includes(l)
          );
          if ((inPlace && !moved) || rand() < 0.5) await eventsArrive(cache, before);
          const what = `seed ${seed}, round ${round}: ${done.join(", ")}`;
          await compareAll(ctx, cache, what);
          const snap = await cache.snapshot(d, { readHeaders: true });
          const read = await scanDirectory({ real: dir, anchor: dir }, { readHeaders: true });
          assert.deepEqual(facts(snap), facts(read), what);
          // In the folder's read order too (a getdents64 pass gives it), as WebDAV answers list entries.
          assert.deepEqual(snap.names, read.names, what);
        }
        const stats = cache.stats();
        assert.equal(stats.misses, misses, `patched, never read again: ${JSON.stringify(stats)}`);
        assert.ok(stats.patches >= 25, JSON.stringify(stats));
      } finally {
        await cache.close();
      }
    });
  }
});

async function cachedFolder(root: string, count: number): Promise<{ ctx: GateContext; cache: ListingCache }> {
  await Deno.mkdir(`${root}/d`);
  for (let i = 0; i < count; i++) await Deno.writeTextFile(`${root}/d/f${i}.txt`, "x");
  const ctx = ctxFor(root);
  const cache = new ListingCache({ minEntries: 0 });
  await getResourceJson(ctx, "/d", { sorting: ALL_SORTINGS[0], readHeaders: true, listings: cache });
  await new Promise((r) => setTimeout(r, 100));
  await getResourceJson(ctx, "/d", { sorting: ALL_SORTINGS[0], readHeaders: true, listings: cache });
  return { ctx, cache };
}

Deno.test("the listing cache reads a folder again instead of patching when exactness is in doubt", async () => {
  const cases: [string, (root: string) => Promise<void>, "patch" | "read", { readHeaders?: boolean }?][] = [
    ["one new file", (root) => Deno.writeTextFile(`${root}/d/new.txt`, "n"), "patch"],
    ["a write in place", (root) => Deno.writeTextFile(`${root}/d/f1.txt`, "longer"), "patch"],
    ["an event on the folder itself", (root) => Deno.chmod(`${root}/d`, 0o750), "read"],
    ["more than 1/8 of the entries", async (root) => {
      for (let i = 0; i < 9; i++) await Deno.writeTextFile(`${root}/d/g${i}.txt`, "g");
    }, "read"],
    ["another readHeaders", (root) => Deno.writeTextFile(`${root}/d/new.txt`, "n"), "read", {
      readHeaders: false,
    }],
    ["another folder at the path", async (root) => {
      await Deno.rename(`${root}/d`, `${root}/old`);
      await Deno.mkdir(`${root}/d`);
      for (let i = 0; i < 64; i++) await Deno.writeTextFile(`${root}/d/f${i}.txt`, "other");
    }, "read"],
  ];
  for (const [label, change, expect, opts] of cases) {
    await withTempRoot(async ({ root }) => {
      const { ctx, cache } = await cachedFolder(root, 64);
      try {
        const before = cache.stats();
        await change(root);
        await eventsArrive(cache, before.events);
        const readHeaders = opts?.readHeaders ?? true;
        const sorting = ALL_SORTINGS[0];
        const got = text((await getResourceJson(ctx, "/d", { sorting, readHeaders, listings: cache })).json!);
        const want = JSON.stringify(await referenceListing(ctx, "/d", { sorting, readHeaders }));
        assert.equal(got, want, label);
        const after = cache.stats();
        const read = after.misses - before.misses, patched = after.patches - before.patches;
        assert.deepEqual(
          { read, patched },
          expect === "read" ? { read: 1, patched: 0 } : { read: 0, patched: 1 },
          label,
        );
      } finally {
        await cache.close();
      }
    });
  }
});

Deno.test("patchToNow() gives up on a folder whose stamp moved when its snapshot has no entry ids", async () => {
  await withTempRoot(async ({ root }) => {
    await Deno.writeTextFile(`${root}/a.txt`, "a");
    const snap = await scanDirectory({ real: root, anchor: root }, { readHeaders: false });
    assert.ok(snap.inos !== null);
    await Deno.writeTextFile(`${root}/b.txt`, "b");
    const now = stampOf(Deno.statSync(root));
    const patched = patchToNow(snap, new Set(), now, 10);
    assert.deepEqual(patched?.names.toSorted(), ["a.txt", "b.txt"]);
    assert.equal(patchToNow({ ...snap, inos: null }, new Set(), now, 10), null);
    assert.equal(patchToNow(snap, new Set(), now, 0), null, "more changes than allowed");
  });
});

Deno.test("the event of a change a patch already showed keeps the snapshot's orders and renderings", async () => {
  await withTempRoot(async ({ root }) => {
    const { ctx, cache } = await cachedFolder(root, 64);
    try {
      const d = await resolveScoped(ctx, "/d", "read");
      const before = cache.stats();
      // No await between the change and the request: its event cannot have arrived, the folder's stamp shows it.
      Deno.writeTextFileSync(`${root}/d/new.txt`, "n");
      const first = await cache.snapshot(d, { readHeaders: true });
      assert.ok(first.names.includes("new.txt"));
      await getResourceJson(ctx, "/d", { sorting: ALL_SORTINGS[0], readHeaders: true, listings: cache });
      assert.equal(first.rendered.size, 1);
      await eventsArrive(cache, before.events);
      const second = await cache.snapshot(d, { readHeaders: true });
      // (Within the racy window after the change every request compares the folder again: more patches.)
      assert.ok(cache.stats().patches >= before.patches + 2, JSON.stringify(cache.stats()));
      assert.equal(cache.stats().misses, before.misses);
      assert.notEqual(second, first, "stamped anew");
      assert.equal(second.rendered, first.rendered, "renderings kept");
      assert.equal(second.orders, first.orders, "orders kept");
      assert.equal(second.fragments, first.fragments);
      // A real change after that is patched into new arrays.
      await Deno.writeTextFile(`${root}/d/new.txt`, "longer");
      await eventsArrive(cache, cache.stats().events);
      const third = await cache.snapshot(d, { readHeaders: true });
      assert.notEqual(third.rendered, first.rendered);
      assert.equal(third.sizes[third.names.indexOf("new.txt")], 6);
    } finally {
      await cache.close();
    }
  });
});

Deno.test("a write in place next to a change of the folder's entries shows at once, before any event", async () => {
  await withTempRoot(async ({ root }) => {
    const { ctx, cache } = await cachedFolder(root, 64);
    try {
      const d = await resolveScoped(ctx, "/d", "read");
      const before = cache.stats();
      // No await between the changes and the request: no event can have arrived.
      Deno.removeSync(`${root}/d/f3.txt`);
      Deno.writeTextFileSync(`${root}/d/f4.txt`, "longer now");
      Deno.chmodSync(`${root}/d/f5.txt`, 0o600);
      const snap = await cache.snapshot(d, { readHeaders: true });
      assert.ok(!snap.names.includes("f3.txt"));
      assert.equal(snap.sizes[snap.names.indexOf("f4.txt")], 10);
      assert.equal(snap.modes[snap.names.indexOf("f5.txt")], 0o600);
      const after = cache.stats();
      assert.deepEqual([after.misses, after.patches], [before.misses, before.patches + 1]);
    } finally {
      await cache.close();
    }
  });
});
