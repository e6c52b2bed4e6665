/** HTTP tests of GET /api/foldersize: roles, traversal, rules and hiding, caching, a 100k tree with cancel. */
import assert from "node:assert/strict";
import { type FilesFixture, filesFixture } from "../fixtures/fs/tree.ts";
import { FolderSizeCache } from "../../lib/fs/folder_size_cache.ts";
import type { FolderSizeEvent } from "../../lib/types.ts";
import { testApp } from "../_helpers.ts";
import { makeTooDeepTree } from "../../lib/fs/_testing.ts";

async function measure(f: FilesFixture, path: string, as = "u") {
  const r = await f.request(`/api/foldersize/${path}`, { as });
  if (r.status !== 200) return { status: r.status, events: [] as FolderSizeEvent[] };
  assert.match(r.headers.get("Content-Type")!, /^application\/x-ndjson/);
  const events = (await r.text()).trim().split("\n").map((l) => JSON.parse(l) as FolderSizeEvent);
  return { status: r.status, events };
}

async function linkSize(path: string): Promise<number> {
  return (await Deno.lstat(path)).size;
}

Deno.test("GET /api/foldersize: role matrix; rules, hiding and links apply; traversal refused", async () => {
  const f = await filesFixture();
  try {
    assert.equal((await measure(f, "", "")).status, 401);
    const links = ["escape.txt", "evil-link", "dangling", "good-link.md"];
    let linkBytes = 0;
    for (const l of links) linkBytes += await linkSize(`${f.home}/${l}`);
    // u: /a is denied, .env hidden, rule-hidden.txt denied; links count as files and are not followed.
    const u = await measure(f, "");
    assert.equal(u.status, 200);
    const expected = { bytes: 1 + 3 + 2 + 6 + linkBytes, files: 4 + links.length, folders: 2 };
    assert.deepEqual(u.events.at(-1), { type: "done", ...expected, cached: false });
    // ro has no permission at all but may read: same view without the user rule and hiding.
    const ro = await measure(f, "", "ro");
    assert.deepEqual(ro.events.at(-1), {
      type: "done",
      bytes: expected.bytes + 2 + 3,
      files: expected.files + 2,
      folders: 3,
      cached: false,
    });
    const file = await measure(f, "docs/readme.md");
    assert.deepEqual(file.events.at(-1), { type: "done", bytes: 6, files: 1, folders: 0, cached: false });
    const cases: [string, number][] = [
      ["evil-link/", 403],
      ["a/", 403],
      [".env", 403],
      ["rule-hidden.txt", 403],
      ["missing/", 404],
    ];
    for (const [path, status] of cases) assert.equal((await measure(f, path)).status, status, path);
    // The app's folder-size cache (lib/boot.ts) answers: the same folder, seen the same way, as the first call.
    const up = await measure(f, "..%2F..%2F");
    assert.deepEqual(
      up.events.at(-1),
      { type: "done", ...expected, cached: true },
      "`..` stays in the scope",
    );
  } finally {
    await f.close();
  }
});

Deno.test("GET /api/foldersize caches per folder and view, and a change below drops the entry", async () => {
  const f = await filesFixture();
  const cache = new FolderSizeCache();
  f.deps.folderSizes = cache;
  try {
    await Deno.mkdir(`${f.home}/docs/deep/er`, { recursive: true });
    const first = await measure(f, "docs/");
    assert.equal(first.events.at(-1)?.type, "done");
    const again = await measure(f, "docs/");
    assert.deepEqual(again.events.at(-1), { ...first.events.at(-1)!, cached: true });
    const admin = await measure(f, "home/docs/", "admin");
    assert.deepEqual(admin.events.at(-1), { ...first.events.at(-1)!, cached: false }, "another view, walked");
    await Deno.writeTextFile(`${f.home}/docs/deep/er/new.txt`, "12345");
    let after: FolderSizeEvent | undefined;
    for (let i = 0; i < 100; i++) {
      after = (await measure(f, "docs/")).events.at(-1);
      if (after?.type === "done" && !after.cached) break;
      await new Promise((res) => setTimeout(res, 20));
    }
    const before = first.events.at(-1)!;
    assert.deepEqual(after, { ...before, bytes: before.bytes + 5, files: before.files + 1, cached: false });
  } finally {
    await cache.close();
    await f.close();
  }
});

Deno.test("GET /api/foldersize walks a 100k-entry tree, with progress; a client going away stops it", async () => {
  const f = await filesFixture();
  try {
    const big = `${f.home}/big`;
    for (let d = 0; d < 100; d++) {
      await Deno.mkdir(`${big}/d${d}`, { recursive: true });
      for (let i = 0; i < 999; i++) Deno.writeFileSync(`${big}/d${d}/f${i}`, new Uint8Array(d % 3));
    }
    const r = await measure(f, "big/");
    assert.equal(r.status, 200);
    assert.deepEqual(r.events.at(-1), {
      type: "done",
      bytes: 33 * 999 * 3,
      files: 99_900,
      folders: 100,
      cached: false,
    });
    const abort = new AbortController();
    const res = await f.app.request("/api/foldersize/big/", {
      headers: { "X-Auth": f.tokens.u },
      signal: abort.signal,
    });
    assert.equal(res.status, 200);
    abort.abort();
    await res.body!.cancel();
  } finally {
    await f.close();
  }
});

Deno.test("GET /api/foldersize and /api/search say when folders were too deep to read (pathTooLong, a last line)", async () => {
  for (const searchIndex of [false, true]) {
    const t = await testApp({ searchIndex });
    try {
      await Deno.mkdir(`${t.root}/deep`);
      const deep = makeTooDeepTree(`${t.root}/deep`);
      const size = await t.request("/api/foldersize/deep/", { as: "admin" });
      assert.equal(size.status, 200);
      const done = JSON.parse((await size.text()).trim().split("\n").at(-1)!);
      assert.deepEqual(done, {
        type: "done",
        bytes: deep.reachable,
        files: deep.reachable,
        folders: deep.reachable + 1,
        pathTooLong: 1,
        cached: false,
      });
      const search = await t.request("/api/search/deep/?query=x.txt", { as: "admin" });
      assert.equal(search.status, 200);
      assert.equal(search.headers.get("X-Search-Index"), searchIndex ? "ready" : "building");
      const lines = (await search.text()).trim().split("\n");
      assert.equal(lines.length, deep.reachable + 1);
      assert.equal(lines.at(-1), '{"truncated":"path_too_long","folders":1}');
      await Deno.remove(`${t.root}/deep`, { recursive: true });
    } finally {
      await t.close();
    }
  }
});
