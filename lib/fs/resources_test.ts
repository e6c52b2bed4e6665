import assert from "node:assert/strict";
import { HttpError } from "../errors.ts";
import { getResource } from "./resources.ts";
import { ctxFor, makeTree, pathRule, withTempRoot } from "./_testing.ts";

const opts = { sorting: { by: "name", asc: false }, readHeaders: true };

Deno.test("getResource() lists a folder with counts, sorting and filebrowser's key order", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, {
      "d/b.txt": "bb",
      "d/a.png": "",
      "d/sub/": "",
      "d/.hidden": "h",
      "d/deny.txt": "x",
    });
    const ctx = ctxFor(root, { hideDotfiles: true, rules: [pathRule("/d/deny.txt")] });
    const { resource } = await getResource(ctx, "/d/", opts);
    assert.ok(resource);
    assert.deepEqual(Object.keys(resource).slice(0, 6), [
      "items",
      "numDirs",
      "numFiles",
      "sorting",
      "path",
      "name",
    ]);
    assert.equal(resource.path, "/d/");
    assert.equal(resource.name, "d");
    assert.deepEqual(resource.items!.map((i) => i.name), ["sub", "a.png", "b.txt"]);
    assert.equal(resource.numDirs, 1);
    assert.equal(resource.numFiles, 2);
    const b = resource.items!.find((i) => i.name === "b.txt")!;
    assert.equal(b.path, "/d/b.txt");
    assert.equal(b.type, "text");
    assert.equal(b.size, 2);
    assert.equal(b.extension, ".txt");
    assert.equal(resource.items!.find((i) => i.name === "a.png")!.type, "image");
    assert.equal(resource.items!.find((i) => i.name === "sub")!.type, "");
    assert.equal(b.content, undefined);
  });
});

Deno.test("getResource() omits escaping links, lists in-scope and broken ones", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(root, { "real/f.txt": "12345" });
    await makeTree(outside, { "secret.txt": "s" });
    await Deno.symlink(`${outside}/secret.txt`, `${root}/escape`);
    await Deno.symlink(`${outside}/nothing`, `${root}/escape-dangling`);
    await Deno.symlink("real/f.txt", `${root}/good`);
    await Deno.symlink("real/missing", `${root}/broken`);
    const { resource } = await getResource(ctxFor(root), "/", opts);
    const names = resource!.items!.map((i) => i.name);
    assert.deepEqual(names, ["real", "broken", "good"]);
    const good = resource!.items!.find((i) => i.name === "good")!;
    assert.equal(good.isSymlink, true);
    assert.equal(good.size, 5);
    assert.equal(good.mode, 0o644 & good.mode);
    const broken = resource!.items!.find((i) => i.name === "broken")!;
    assert.equal(broken.type, "invalid_link");
    assert.equal(broken.isSymlink, true);
    assert.equal(broken.isDir, false);
    // A single GET of a link shows the link's own mode (symlink bit) but the target's size.
    const single = await getResource(ctxFor(root), "/good", opts);
    assert.equal(single.resource!.size, 5);
    assert.ok(single.resource!.mode >= 2 ** 27);
    const follow = await getResource(ctxFor(root, { followExternalSymlinks: true }), "/", opts);
    assert.ok(follow.resource!.items!.some((i) => i.name === "escape"));
  });
});

Deno.test("getResource() returns content only with download, checksums, and raw text for X-Encoding", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "secret.txt": "classified", "bin.dat": "\x00\x01\x02" });
    const r = await getResource(ctxFor(root), "/secret.txt", opts);
    assert.equal(r.resource!.content, "classified");
    assert.equal(r.resource!.type, "text");
    const ro = await getResource(ctxFor(root, { perm: { modify: false } }), "/secret.txt", opts);
    assert.equal(ro.resource!.type, "textImmutable");
    const nodl = await getResource(ctxFor(root, { perm: { download: false } }), "/secret.txt", opts);
    assert.equal(nodl.resource!.content, undefined);
    await assert.rejects(
      getResource(ctxFor(root, { perm: { download: false } }), "/secret.txt", {
        ...opts,
        checksum: "sha256",
      }),
      (e: HttpError) => e.status === 202,
    );
    const sum = await getResource(ctxFor(root), "/secret.txt", { ...opts, checksum: "md5" });
    assert.deepEqual(Object.keys(sum.resource!.checksums!), ["md5"]);
    const expected = new TextDecoder().decode(
      new Deno.Command("md5sum", { args: [`${root}/secret.txt`] }).outputSync().stdout,
    ).split(" ")[0];
    assert.equal(sum.resource!.checksums!.md5, expected);
    assert.equal(sum.resource!.content, undefined);
    await assert.rejects(
      getResource(ctxFor(root), "/secret.txt", { ...opts, checksum: "crc" }),
      (e: HttpError) => e.status === 400,
    );
    const raw = await getResource(ctxFor(root), "/secret.txt", { ...opts, rawText: true });
    assert.equal(new TextDecoder().decode(raw.raw), "classified");
    const bin = await getResource(ctxFor(root), "/bin.dat", { ...opts, rawText: true });
    assert.equal(bin.resource!.type, "blob");
    await assert.rejects(getResource(ctxFor(root), "/missing", opts), (e: HttpError) => e.status === 404);
  });
});

Deno.test("getResource() finds subtitles of a video", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, {
      "v/Movie.mp4": "",
      "v/Movie.en.srt": "",
      "v/Movie.vtt": "",
      "v/Other.srt": "",
      "v/Subs/x.ass": "",
      "v/subtitles/Movie extras/y.ssa": "",
      "v/subtitles/Else/z.srt": "",
    });
    const r = await getResource(ctxFor(root), "/v/Movie.mp4", opts);
    assert.deepEqual(r.resource!.subtitles, [
      "/v/Movie.en.srt",
      "/v/Movie.vtt",
      "/v/Subs/x.ass",
      "/v/subtitles/Movie extras/y.ssa",
    ]);
    const none = await getResource(ctxFor(root), "/v/Other.srt", opts);
    assert.equal(none.resource!.subtitles, undefined);
  });
});

Deno.test("getResource() lists 2k files quickly", async () => {
  await withTempRoot(async ({ root }) => {
    await Deno.mkdir(`${root}/many`);
    for (let i = 0; i < 2_000; i++) Deno.writeTextFileSync(`${root}/many/file-${i}.txt`, "x");
    const t0 = performance.now();
    const r = await getResource(ctxFor(root), "/many/", opts);
    const ms = performance.now() - t0;
    assert.equal(r.resource!.numFiles, 2_000);
    assert.equal(r.resource!.items![0].name, "file-0.txt");
    assert.equal(r.resource!.items![2].name, "file-2.txt");
    assert.ok(ms < 2000, `listing took ${ms} ms`);
  });
});

Deno.test("getResource() never opens a FIFO: typed blob, checksum refused", async () => {
  await withTempRoot(async ({ root }) => {
    const mk = new Deno.Command("mkfifo", { args: [`${root}/pipe`] }).outputSync();
    assert.equal(mk.code, 0);
    const { resource } = await getResource(ctxFor(root), "/", opts);
    assert.equal(resource!.items!.find((i) => i.name === "pipe")!.type, "blob");
    const single = await getResource(ctxFor(root), "/pipe", opts);
    assert.equal(single.resource!.type, "blob");
    assert.equal(single.resource!.content, undefined);
    await assert.rejects(
      getResource(ctxFor(root), "/pipe", { ...opts, checksum: "md5" }),
      (e: HttpError) => e.status === 400,
    );
  });
});

Deno.test("getResource() lists a linked folder with the rules of where it really is", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "d/secret.txt": "s", "d/ok.txt": "ok" });
    await Deno.symlink("d", `${root}/alias`);
    const ctx = ctxFor(root, { rules: [pathRule("/d/secret.txt")] });
    const { resource } = await getResource(ctx, "/alias/", opts);
    assert.deepEqual(resource!.items!.map((i) => i.name), ["ok.txt"]);
  });
});
