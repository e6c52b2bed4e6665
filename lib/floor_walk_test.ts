import assert from "node:assert/strict";
import { ForbiddenError } from "./errors.ts";
import { walkBeneath } from "./floor_walk.ts";

async function tree() {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "floor-walk-" }));
  const root = `${base}/root`;
  await Deno.mkdir(`${root}/top/d/e`, { recursive: true });
  await Deno.mkdir(`${base}/outside/secret`, { recursive: true });
  await Deno.writeTextFile(`${root}/top/a.txt`, "a");
  await Deno.writeTextFile(`${root}/top/d/b.txt`, "bb");
  await Deno.writeTextFile(`${base}/outside/secret/s.txt`, "SECRET");
  await Deno.symlink(`${base}/outside`, `${root}/top/link`);
  return { base, root, [Symbol.asyncDispose]: () => Deno.remove(base, { recursive: true }) };
}

Deno.test("walkBeneath() yields every entry in pre-order and never enters a link", async () => {
  await using t = await tree();
  const seen = [];
  for await (const e of walkBeneath(t.root, `${t.root}/top`)) {
    seen.push(`${e.rel}:${e.info.isSymlink ? "l" : e.info.isDirectory ? "d" : e.info.size}`);
  }
  assert.deepEqual(seen, ["a.txt:1", "d:d", "link:l", "d/b.txt:2", "d/e:d"]);
});

Deno.test("walkBeneath() refuses a folder swapped for a link to outside after it was listed", async () => {
  await using t = await tree();
  const seen: string[] = [];
  await assert.rejects(async () => {
    for await (const e of walkBeneath(t.root, `${t.root}/top`)) {
      seen.push(e.rel);
      if (e.rel === "d") {
        await Deno.rename(`${t.root}/top/d`, `${t.root}/d.moved`);
        await Deno.symlink(`${t.base}/outside`, `${t.root}/top/d`);
      }
    }
  }, ForbiddenError);
  assert.equal(seen.some((rel) => rel.startsWith("d/")), false);
});

Deno.test('walkBeneath() with the anchor "" walks a server path', async () => {
  await using t = await tree();
  const rels = await Array.fromAsync(walkBeneath("", `${t.base}/outside`), (e) => e.rel);
  assert.deepEqual(rels, ["secret", "secret/s.txt"]);
});
