import assert from "node:assert/strict";
import { ctxFor, makeTree, pathRule, prng, regexRule, withTempRoot } from "../../fs/_testing.ts";
import type { GateContext } from "../../fs/gate.ts";
import type { Rule } from "../../types.ts";
import { parseSearchQuery, searchFiles } from "../mod.ts";
import { NameArena, SEGMENT } from "./arena.ts";
import { SearchIndex } from "./mod.ts";

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

async function both(ctx: GateContext, index: SearchIndex, base: string, raw: string) {
  const q = parseSearchQuery(raw);
  const walked = await Array.fromAsync(searchFiles(ctx, base, q));
  const indexed = await Array.fromAsync(searchFiles(ctx, base, q, { index }));
  return { walked, indexed };
}

/** The index's hits for `q` below the root, as paths. */
function relsOf(index: SearchIndex, q: ReturnType<typeof parseSearchQuery>): string[] {
  return [...index.query("", q) ?? []].flat().map((h) => (h.parent ? `${h.parent}/${h.name}` : h.name));
}

Deno.test("NameArena finds every name holding a term once, never across two names", () => {
  const a = new NameArena();
  const names = ["Cat.JPG", "dog", "catalog", "", "xcat"];
  names.forEach((n, i) => a.set(i, n));
  a.set(SEGMENT + 3, "bigCAT");
  const found = (term: string, lower: boolean) => {
    const ids: number[] = [];
    a.search(term, { lower }, (id) => ids.push(id));
    return ids;
  };
  assert.deepEqual(found("cat", true), [0, 2, 4, SEGMENT + 3]);
  assert.deepEqual(found("cat", false), [2, 4]);
  assert.deepEqual(found("\0", true), []);
  a.set(2, "renamed");
  assert.equal(a.get(2), "renamed");
  assert.deepEqual(found("cat", true), [0, 4, SEGMENT + 3]);
  assert.equal(a.get(SEGMENT + 3), "bigCAT");
});

Deno.test("SearchIndex answers like the walk: rules, hiding, scope, links, types, case", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(root, {
      "a/cat.jpg": "",
      "a/b/cat2.png": "",
      "deny/cat.jpg": "",
      "deny/ok/cat.jpg": "",
      ".hidden/cat.jpg": "",
      "cats/": "",
      "Cat.TXT": "",
      "d/secret.txt": "",
    });
    await makeTree(outside, { "cat-secret.jpg": "" });
    await Deno.symlink(outside, `${root}/cat-out`);
    await Deno.symlink(`${root}/a`, `${root}/cat-in`);
    await Deno.symlink("d", `${root}/alias`);
    const index = new SearchIndex(root, { reconcileMs: 0 });
    try {
      await index.start();
      // foldCase set: the gate's case probe would otherwise drop a file in the root that the index may see.
      const ctx = ctxFor(root, {
        foldCase: false,
        hideDotfiles: true,
        rules: [pathRule("/deny"), pathRule("/deny/ok", true), pathRule("/d/secret.txt")],
      });
      for (const base of ["/", "/a/", "/alias/", "/cat-out/", "/missing/"]) {
        for (const q of ["cat", "type:image", "case:sensitive Cat", "", "txt", '"t.j"', "CAT type:txt"]) {
          const { walked, indexed } = await both(ctx, index, base, q);
          assert.deepEqual(indexed, walked, `${base} ${q}`);
        }
      }
      const { indexed } = await both(ctx, index, "/", "cat");
      assert.ok(indexed.some((h) => h.path === "deny/ok/cat.jpg"));
      assert.ok(!indexed.some((h) => h.path.includes("hidden") || h.path === "deny/cat.jpg"));
    } finally {
      await index.close();
    }
  });
});

for (const where of ["thread", "worker"] as const) {
  Deno.test(`SearchIndex follows changes through the watcher alone (watch on the ${where})`, async () => {
    await withTempRoot(async ({ root }) => {
      await makeTree(root, { "x/old.txt": "" });
      // A one-folder limit puts the watch of this tree (root and x) in the worker.
      const inlineWatchFolders = where === "thread" ? 1_000 : 1;
      const index = new SearchIndex(root, { reconcileMs: 0, debounceMs: 10, inlineWatchFolders });
      try {
        await index.start();
        assert.equal(index.stats().watcher, where);
        await Deno.rename(`${root}/x`, `${root}/y`);
        await makeTree(root, { "y/z/new.txt": "" });
        const q = parseSearchQuery("txt");
        const want = ["y/old.txt", "y/z/new.txt"];
        // Generous deadline: events arrive when the loaded machine gets to them; no timing is asserted.
        for (let i = 0; i < 200; i++) {
          await index.settle();
          if (JSON.stringify(relsOf(index, q)) === JSON.stringify(want)) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.deepEqual(relsOf(index, q), want);
      } finally {
        await index.close();
      }
    });
  });
}

const NAMES = [
  "a",
  "B",
  "ab",
  "n\nl\u2028",
  ".dot",
  "Cat.jpg",
  "cat.JPG",
  "x y",
  "é.png",
  "a-b",
  "z.md",
  "Ω",
];
const QUERIES = ["a", "A", "case:sensitive B", "type:image", "type:md", ".", "cat", "", '"x y"', "a b"];

function randomRules(r: () => number, paths: string[]): Rule[] {
  const rules: Rule[] = [];
  for (let i = Math.floor(r() * 3); i > 0; i--) {
    if (r() < 0.2) rules.push(regexRule(pick(r, ["\\.jpg$", "/a", "B"]), r() < 0.3));
    else if (paths.length) rules.push(pathRule(pick(r, paths), r() < 0.3));
  }
  return rules;
}

async function listTree(root: string, rel = ""): Promise<{ files: string[]; dirs: string[] }> {
  const out = { files: [] as string[], dirs: [] as string[] };
  for await (const e of Deno.readDir(rel ? `${root}/${rel}` : root)) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory) {
      out.dirs.push(p);
      const sub = await listTree(root, p);
      out.files.push(...sub.files);
      out.dirs.push(...sub.dirs);
    } else {
      out.files.push(p);
    }
  }
  return out;
}

Deno.test("property: after random creates, renames, deletes and rule changes the index equals a fresh walk", async () => {
  let total = 0;
  for (const seed of [1, 2, 3]) {
    await withTempRoot(async ({ root }) => {
      const r = prng(seed);
      const index = new SearchIndex(root, { reconcileMs: 0, debounceMs: 5 });
      try {
        const started = index.start();
        for (let round = 0; round < 6; round++) {
          for (let op = 0; op < 15; op++) {
            const { files, dirs } = await listTree(root);
            const dir = r() < 0.3 || !dirs.length ? "" : pick(r, dirs) + "/";
            const kind = r();
            try {
              if (kind < 0.35) await Deno.writeTextFile(`${root}/${dir}${pick(r, NAMES)}`, "");
              else if (kind < 0.55) await Deno.mkdir(`${root}/${dir}${pick(r, NAMES)}`);
              else if (kind < 0.75 && (files.length || dirs.length)) {
                const from = pick(r, r() < 0.5 && dirs.length ? dirs : files.length ? files : dirs);
                await Deno.rename(`${root}/${from}`, `${root}/${dir}${pick(r, NAMES)}`);
              } else if (kind < 0.9 && (files.length || dirs.length)) {
                await Deno.remove(`${root}/${pick(r, [...files, ...dirs])}`, { recursive: true });
              } else {
                await Deno.symlink(pick(r, ["a", "..", "/etc", "B/ab"]), `${root}/${dir}${pick(r, NAMES)}`);
              }
            } catch {
              // Name taken, or a folder moved into itself: the disk said no, which is fine.
            }
          }
          await started;
          await index.refresh();
          const { dirs } = await listTree(root);
          const paths = dirs.map((d) => "/" + d);
          const ctx = ctxFor(root, {
            foldCase: false,
            hideDotfiles: r() < 0.5,
            rules: randomRules(r, paths),
            globalRules: randomRules(r, paths),
          });
          for (const base of ["/", ...dirs.slice(0, 3).map((d) => `/${d}/`)]) {
            for (const q of QUERIES) {
              const { walked, indexed } = await both(ctx, index, base, q);
              assert.deepEqual(indexed, walked, `seed ${seed} round ${round} base ${base} query ${q}`);
              total += walked.length;
            }
          }
        }
      } finally {
        await index.close();
      }
    });
  }
  // The comparison must have had something to compare.
  assert.ok(total > 200, `only ${total} hits`);
});

Deno.test("a query paused between batches while the tree changes resumes after the last path it gave", async () => {
  await withTempRoot(async ({ root }) => {
    const files: Record<string, string> = {};
    for (let d = 0; d < 30; d++) {
      for (let f = 0; f < 30; f++) {
        files[`d${String(d).padStart(2, "0")}/f${String(f).padStart(2, "0")}.txt`] = "";
      }
    }
    await makeTree(root, files);
    const index = new SearchIndex(root, { reconcileMs: 0, watch: false });
    try {
      await index.start();
      const q = parseSearchQuery("f");
      const paths = (hits: { parent: string; name: string }[]) =>
        hits.map((h) => (h.parent ? `${h.parent}/${h.name}` : h.name));
      const query = index.query("", q)!;
      const first = paths(query.next().value!);
      const last = first.at(-1)!;
      assert.equal(last, "d08/f15.txt");
      // The folder the query is inside is replaced (its ids are freed and reused), others come and go.
      await Deno.remove(`${root}/d08`, { recursive: true });
      await Deno.remove(`${root}/d02`, { recursive: true });
      await Deno.remove(`${root}/d20`, { recursive: true });
      await makeTree(root, {
        "d08/f01.txt": "",
        "d08/f20.txt": "",
        "d08/g.txt": "",
        "d09a/f.txt": "",
        "d21/f99": "",
      });
      await index.refresh();
      const rest = paths([...query].flat());
      const key = (p: string) => p.replaceAll("/", "\0");
      const want = relsOf(index, q).filter((p) => key(p) > key(last));
      assert.deepEqual(rest, want);
      assert.ok(rest.includes("d08/f20.txt") && rest.includes("d09a/f.txt") && rest.includes("d21/f99"));
      assert.ok(!rest.some((p) => p.startsWith("d20/") || p === "d08/f01.txt"));
    } finally {
      await index.close();
    }
  });
});
