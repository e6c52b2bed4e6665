import assert from "node:assert/strict";
import type { GateContext } from "./gate.ts";
import { TEMP_PREFIX } from "./atomic.ts";
import { ListingCache } from "./listing_cache.ts";
import { getResourceJson } from "./resources.ts";
import { referenceListing } from "./_listing_reference.ts";
import { ALL_SORTINGS, ctxFor, pathRule, prng, regexRule, withTempRoot } from "./_testing.ts";

/** Name parts whose natural order is a total order (no leading zeros, no huge numbers). */
const SAFE_PARTS = ["a", "B", "b", "file", "1", "10", "2", "9", ".", "-", "é", '"q', "\\", " ", "日本"];
/**
 * With these, filebrowser's natural name comparison is not transitive (`a1b` < `a01c` < `a1` < `a1b`), so no
 * order is "the" sorted one: the fast path and the reference then differ in order only.
 */
const ALL_PARTS = [...SAFE_PARTS, "0", "01", "007", "18446744073709551616"];
const EXTS = ["", ".txt", ".TXT", ".png", ".mp4", ".bin", ".tar.gz", ".md"];

async function randomTree(
  dir: string,
  outside: string,
  options: { rand: () => number; parts: string[] },
): Promise<void> {
  const rand = options.rand;
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const used = new Set<string>();
  const fresh = () => {
    for (;;) {
      let n = rand() < 0.15 ? "." : "";
      const len = 1 + Math.floor(rand() * 4);
      for (let k = 0; k < len; k++) n += pick(options.parts);
      n += pick(EXTS);
      if (n !== "." && n !== ".." && !used.has(n.toLowerCase())) {
        used.add(n.toLowerCase());
        return n;
      }
    }
  };
  await Deno.mkdir(dir, { recursive: true });
  const times = [0, 1_600_000_000_000, 1_600_000_000_500, 1_700_000_000_123];
  for (let i = 0; i < 60; i++) {
    const name = fresh();
    const path = `${dir}/${name}`;
    const r = rand();
    if (r < 0.15) await Deno.mkdir(path);
    else if (r < 0.2) await Deno.writeFile(path, new Uint8Array([0, 1, 2, 0xff, 0])); // binary content
    else if (r < 0.25) await Deno.writeFile(path, new Uint8Array(0));
    else await Deno.writeTextFile(path, "x".repeat(Math.floor(rand() * 3) * 7));
    const t = pick(times) / 1000 + (rand() < 0.5 ? 0 : Math.floor(rand() * 3));
    await Deno.utime(path, t, t);
  }
  await Deno.writeTextFile(`${dir}/${TEMP_PREFIX}upload`, "partial");
  await Deno.writeTextFile(`${outside}/secret.txt`, "s");
  await Deno.symlink(`${outside}/secret.txt`, `${dir}/escape.txt`);
  await Deno.symlink("missing", `${dir}/dangling`);
  const targets = [...used].length ? [...Deno.readDirSync(dir)].map((e) => e.name) : [];
  for (let i = 0; i < 5; i++) await Deno.symlink(pick(targets), `${dir}/link-${i}${pick(EXTS)}`);
  await Deno.symlink(".", `${dir}/self-link`);
  const mk = new Deno.Command("mkfifo", { args: [`${dir}/pipe`] }).outputSync();
  assert.equal(mk.code, 0);
}

function contexts(root: string): { label: string; ctx: GateContext; vpath: string }[] {
  return [
    { label: "plain", ctx: ctxFor(root), vpath: "/d/" },
    { label: "hidden", ctx: ctxFor(root, { hideDotfiles: true }), vpath: "/d" },
    {
      label: "rules",
      ctx: ctxFor(root, {
        rules: [pathRule("/d/a"), regexRule("1\\.txt$"), pathRule("/d/a.txt", true)],
        globalRules: [regexRule("B")],
        hideDotfiles: true,
      }),
      vpath: "/d/",
    },
    { label: "scope", ctx: ctxFor(root, { scope: "/d", rules: [pathRule("/file")] }), vpath: "/" },
    { label: "share", ctx: ctxFor(root, { base: "/d", rules: [regexRule("^/d/b")] }), vpath: "/" },
    { label: "via link", ctx: ctxFor(root, { rules: [regexRule("^/d/[0-9]")] }), vpath: "/alias/" },
    { label: "external", ctx: ctxFor(root, { followExternalSymlinks: true }), vpath: "/d/" },
  ];
}

async function compareOnRandomTrees(options: { seeds: number[]; parts: string[]; exactOrder: boolean }) {
  for (const seed of options.seeds) {
    await withTempRoot(async ({ root, outside }) => {
      await randomTree(`${root}/d`, outside, { rand: prng(seed), parts: options.parts });
      await Deno.symlink("d", `${root}/alias`);
      const cache = new ListingCache({ minEntries: 0 });
      try {
        // Past the "racy" window, so the cache may serve the snapshots.
        await new Promise((r) => setTimeout(r, 100));
        for (const { label, ctx, vpath } of contexts(root)) {
          for (const readHeaders of label === "plain" ? [true, false] : [true]) {
            for (const sorting of ALL_SORTINGS) {
              const opts = { sorting, readHeaders };
              const what = `seed ${seed}, ${label}, ${JSON.stringify(sorting)}, readHeaders ${readHeaders}`;
              const reference = JSON.stringify(await referenceListing(ctx, vpath, opts));
              const uncached = text((await getResourceJson(ctx, vpath, opts)).json!);
              const cached = text((await getResourceJson(ctx, vpath, { ...opts, listings: cache })).json!);
              assert.equal(cached, uncached, `cached = uncached: ${what}`);
              if (options.exactOrder) assert.equal(uncached, reference, `fast = reference: ${what}`);
              else assert.deepEqual(byName(uncached), byName(reference), `same items: ${what}`);
            }
          }
        }
        const stats = cache.stats();
        assert.ok(stats.hits > stats.misses, `the cache served most of them: ${JSON.stringify(stats)}`);
      } finally {
        await cache.close();
      }
    });
  }
}

/** The text of a chunked JSON answer. */
function text(chunks: Uint8Array[]): string {
  const decoder = new TextDecoder();
  return chunks.map((c) => decoder.decode(c, { stream: true })).join("") + decoder.decode();
}

/** A listing with its items in name order (to compare listings whose order is not defined). */
function byName(json: string): unknown {
  const r = JSON.parse(json);
  r.items.sort((a: { name: string }, b: { name: string }) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return r;
}

Deno.test("getResourceJson() is exactly the JSON of the plain reference listing on random trees, cached or not", async () => {
  await compareOnRandomTrees({ seeds: [1, 2], parts: SAFE_PARTS, exactOrder: true });
});

Deno.test("getResourceJson() lists the same items as the reference listing where natural order is not total", async () => {
  await compareOnRandomTrees({ seeds: [3], parts: ALL_PARTS, exactOrder: false });
});

Deno.test("getResourceJson() answers a file as one JSON object, and raw bytes for X-Encoding", async () => {
  await withTempRoot(async ({ root }) => {
    await Deno.writeTextFile(`${root}/a.txt`, "hello");
    const opts = { sorting: ALL_SORTINGS[0], readHeaders: true };
    const answer = JSON.parse(text((await getResourceJson(ctxFor(root), "/a.txt", opts)).json!));
    assert.deepEqual([answer.path, answer.name, answer.size, answer.type, answer.content], [
      "/a.txt",
      "a.txt",
      5,
      "text",
      "hello",
    ]);
    const raw = await getResourceJson(ctxFor(root), "/a.txt", { ...opts, rawText: true });
    assert.equal(new TextDecoder().decode(raw.raw), "hello");
  });
});
