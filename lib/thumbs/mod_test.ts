import assert from "node:assert/strict";
import sharp from "sharp";
import { HttpError } from "../errors.ts";
import { resolveScoped, type ScopedPath } from "../fs/gate.ts";
import { vpathDir } from "../fs/path.ts";
import { ctxFor } from "../fs/_testing.ts";
import { canResize, createPreviewService, parsePreviewSize, type PreviewCache } from "./mod.ts";

const RED = { r: 255, g: 0, b: 0 };
const BLUE = { r: 0, g: 0, b: 255 };

/** A temp dir with `src/` for inputs and `cache/` for the service; removed afterwards. */
async function withDirs(fn: (dirs: { src: string; cache: string }) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "thumbs_test_" });
  try {
    await Deno.mkdir(`${root}/src`);
    await fn({ src: `${root}/src`, cache: `${root}/cache` });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** Left half red, right half blue, as raw RGB pixels. */
function splitPixels(width: number, height: number): Uint8Array {
  const px = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = x < width / 2 ? RED : BLUE;
      px.set([c.r, c.g, c.b], (y * width + x) * 3);
    }
  }
  return px;
}

async function noisyJpeg(path: string, size: { width: number; height: number }): Promise<void> {
  await sharp({
    create: {
      ...size,
      channels: 3,
      background: { r: 90, g: 140, b: 60 },
      noise: { type: "gaussian", mean: 128, sigma: 40 },
    },
  }).jpeg({ quality: 85 }).toFile(path);
}

/** The gate's view of an on-disk path (its folder as the root), as lib/fs hands it to the cache. */
function scoped(path: string, root = vpathDir(path)): Promise<ScopedPath> {
  return resolveScoped(ctxFor(root), path.slice(root.length) || "/", "read");
}

/** `p` as if the gate had seen another version of the file (the stat is what keys an entry). */
function restat(p: ScopedPath, change: { mtimeMs?: number; size?: number }): ScopedPath {
  const stat = p.stat!;
  const mtime = change.mtimeMs === undefined ? stat.mtime : new Date(change.mtimeMs);
  return { ...p, stat: { ...stat, mtime, size: change.size ?? stat.size } };
}

async function preview(svc: PreviewCache, path: string, size: "thumb" | "big") {
  return await svc.getPreview(await scoped(path), size);
}

async function pixelAt(path: string, at: { x: number; y: number }) {
  const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  const i = (at.y * info.width + at.x) * info.channels;
  return { r: data[i], g: data[i + 1], b: data[i + 2] };
}

/** Every file below `dir`, recursively. */
async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) out.push(...await listFiles(`${dir}/${e.name}`));
    else out.push(`${dir}/${e.name}`);
  }
  return out;
}

async function rejectsWith(p: Promise<unknown>, want: { status: number; code: string }): Promise<HttpError> {
  let caught: unknown;
  await assert.rejects(p, (err) => {
    caught = err;
    return err instanceof HttpError && err.status === want.status && err.code === want.code;
  });
  return caught as HttpError;
}

Deno.test("parsePreviewSize() accepts thumb and big and refuses anything else with upstream's text", () => {
  assert.equal(parsePreviewSize("thumb"), "thumb");
  assert.equal(parsePreviewSize("big"), "big");
  assert.throws(() => parsePreviewSize("Big"), (err) => {
    return err instanceof HttpError && err.status === 400 &&
      err.message === "Big is not a valid PreviewSize, try [thumb, big]";
  });
});

Deno.test("canResize() covers jpeg, png, tiff and webp in any case but leaves gif and bmp raw", () => {
  for (const ext of ["jpg", "JPEG", ".png", "tif", "TIFF", "webp"]) assert.equal(canResize(ext), true, ext);
  for (const ext of ["gif", "GIF", "bmp", "svg", "txt", "", "jpgx"]) assert.equal(canResize(ext), false, ext);
});

Deno.test("getPreview() makes an exact 256×256 JPEG thumbnail without metadata", async () => {
  await withDirs(async ({ src, cache }) => {
    const file = `${src}/photo.jpg`;
    await sharp({ create: { width: 900, height: 400, channels: 3, background: RED } })
      .jpeg().withExif({ IFD0: { Copyright: "secret" } }).toFile(file);
    const svc = createPreviewService({ cacheDir: cache, concurrency: 1 });
    const thumb = await preview(svc, file, "thumb");
    assert.equal(thumb.contentType, "image/jpeg");
    assert.ok(thumb.path.startsWith(`${cache}/`));
    assert.equal(thumb.size, (await Deno.stat(thumb.path)).size);
    const meta = await sharp(thumb.path).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height, meta.exif], ["jpeg", 256, 256, undefined]);
  });
});

Deno.test("getPreview() applies EXIF orientation 6 to thumb and big previews", async () => {
  await withDirs(async ({ src, cache }) => {
    const file = `${src}/rotated.jpg`;
    // Stored 300×200 with red on the left; orientation 6 displays it 200×300 with red on top.
    await sharp(splitPixels(300, 200), { raw: { width: 300, height: 200, channels: 3 } })
      .jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toFile(file);
    assert.equal((await sharp(file).metadata()).orientation, 6);
    const svc = createPreviewService({ cacheDir: cache });
    const big = await preview(svc, file, "big");
    const meta = await sharp(big.path).metadata();
    assert.deepEqual([meta.width, meta.height, meta.orientation], [200, 300, undefined]);
    const thumb = await preview(svc, file, "thumb");
    const top = await pixelAt(thumb.path, { x: 128, y: 20 });
    const bottom = await pixelAt(thumb.path, { x: 128, y: 235 });
    assert.ok(top.r > 200 && top.b < 60, `top should be red, got ${JSON.stringify(top)}`);
    assert.ok(bottom.b > 200 && bottom.r < 60, `bottom should be blue, got ${JSON.stringify(bottom)}`);
  });
});

Deno.test("getPreview() big never upscales and keeps PNG as PNG", async () => {
  await withDirs(async ({ src, cache }) => {
    const file = `${src}/small.png`;
    await sharp({ create: { width: 100, height: 80, channels: 4, background: { ...BLUE, alpha: 0.5 } } })
      .png().toFile(file);
    const svc = createPreviewService({ cacheDir: cache });
    const big = await preview(svc, file, "big");
    assert.equal(big.contentType, "image/png");
    const meta = await sharp(big.path).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height, meta.hasAlpha], ["png", 100, 80, true]);
    // The thumb is JPEG and upscaled; transparency lands on white, not black.
    const thumb = await preview(svc, file, "thumb");
    assert.equal(thumb.contentType, "image/jpeg");
    const px = await pixelAt(thumb.path, { x: 5, y: 5 });
    assert.ok(px.r > 100 && px.g > 100 && px.b > 200, `expected light blue, got ${JSON.stringify(px)}`);
  });
});

Deno.test("getPreview() big fits large images into 1080×1080 as JPEG, whatever the file is named", async () => {
  await withDirs(async ({ src, cache }) => {
    const file = `${src}/wide.png`; // really a JPEG: the content decides
    await noisyJpeg(file, { width: 2000, height: 1500 });
    const svc = createPreviewService({ cacheDir: cache });
    const big = await preview(svc, file, "big");
    assert.equal(big.contentType, "image/jpeg");
    const meta = await sharp(big.path).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ["jpeg", 1080, 810]);
  });
});

Deno.test("getPreview() serves a cache hit without re-encoding and re-encodes when mtime changes", async () => {
  await withDirs(async ({ src, cache }) => {
    const file = `${src}/a.jpg`;
    await noisyJpeg(file, { width: 400, height: 300 });
    const svc = createPreviewService({ cacheDir: cache });
    const source = await scoped(file);
    const first = await svc.getPreview(source, "thumb");
    const firstStat = await Deno.stat(first.path);
    const second = await svc.getPreview(source, "thumb");
    assert.deepEqual(second, first);
    assert.deepEqual((await Deno.stat(first.path)).mtime, firstStat.mtime);
    assert.deepEqual([svc.stats.encoded, svc.stats.hits], [1, 1]);
    // A second instance (e.g. after a restart) finds the entry on disk too.
    const other = createPreviewService({ cacheDir: cache });
    assert.deepEqual(await other.getPreview(source, "thumb"), first);
    assert.equal(other.stats.encoded, 0);

    const changed = await svc.getPreview(restat(source, { mtimeMs: 1000 }), "thumb");
    assert.notEqual(changed.path, first.path);
    assert.equal(svc.stats.encoded, 2);
    const bigger = await svc.getPreview(restat(source, { size: source.stat!.size + 1 }), "thumb");
    assert.notEqual(bigger.path, first.path);
    assert.equal(svc.stats.encoded, 3);
  });
});

Deno.test("getPreview() replaces a cache entry that is not an image", async () => {
  await withDirs(async ({ src, cache }) => {
    const file = `${src}/a.jpg`;
    await noisyJpeg(file, { width: 400, height: 300 });
    const svc = createPreviewService({ cacheDir: cache });
    const first = await preview(svc, file, "thumb");
    await Deno.writeTextFile(first.path, "not an image");
    const again = await preview(svc, file, "thumb");
    assert.equal(again.path, first.path);
    assert.equal(svc.stats.encoded, 2);
    assert.equal((await sharp(again.path).metadata()).format, "jpeg");
  });
});

Deno.test("getPreview() shares one job between concurrent requests for the same entry", async () => {
  await withDirs(async ({ src, cache }) => {
    const file = `${src}/a.jpg`;
    await noisyJpeg(file, { width: 1200, height: 900 });
    const svc = createPreviewService({ cacheDir: cache });
    const source = await scoped(file);
    const results = await Promise.all(Array.from({ length: 6 }, () => svc.getPreview(source, "big")));
    assert.equal(new Set(results.map((r) => r.path)).size, 1);
    assert.equal(svc.stats.encoded, 1);
  });
});

Deno.test("getPreview() never runs more resizes at once than its concurrency", async () => {
  await withDirs(async ({ src, cache }) => {
    const files = Array.from({ length: 6 }, (_, i) => `${src}/n${i}.jpg`);
    await Promise.all(files.map((f) => noisyJpeg(f, { width: 1400, height: 1000 })));
    for (const concurrency of [1, 2]) {
      const svc = createPreviewService({ cacheDir: `${cache}${concurrency}`, concurrency });
      await Promise.all(files.map((f) => preview(svc, f, "big")));
      assert.equal(svc.stats.encoded, files.length);
      assert.equal(svc.stats.peakActive, concurrency);
      assert.equal(svc.stats.active, 0);
    }
  });
});

Deno.test("getPreview() refuses sources over 10000 px on a side or over maxPixels with 413", async () => {
  await withDirs(async ({ src, cache }) => {
    const file = `${src}/strip.png`;
    await sharp({ create: { width: 12000, height: 10, channels: 3, background: RED } }).png().toFile(file);
    const svc = createPreviewService({ cacheDir: cache });
    await rejectsWith(preview(svc, file, "thumb"), { status: 413, code: "image_too_large" });
    const square = `${src}/square.png`;
    await sharp({ create: { width: 200, height: 200, channels: 3, background: RED } }).png().toFile(square);
    const strict = createPreviewService({ cacheDir: cache, maxPixels: 150 * 150 });
    await rejectsWith(preview(strict, square, "big"), { status: 413, code: "image_too_large" });
    assert.equal(svc.stats.encoded + strict.stats.encoded, 0);
  });
});

Deno.test("getPreview() turns undecodable input into 500 preview_failed and leaves no temp file", async () => {
  await withDirs(async ({ src, cache }) => {
    const file = `${src}/broken.jpg`;
    await Deno.writeFile(file, crypto.getRandomValues(new Uint8Array(4096)));
    const svc = createPreviewService({ cacheDir: cache });
    const err = await rejectsWith(preview(svc, file, "thumb"), { status: 500, code: "preview_failed" });
    assert.ok(err.cause instanceof Error);
    // A valid PNG header with corrupt pixel data passes metadata() and fails while decoding.
    const corrupt = `${src}/corrupt.png`;
    const bytes = new Uint8Array(
      await sharp({ create: { width: 400, height: 300, channels: 3, background: RED } }).png().toBuffer(),
    );
    const idat = new TextDecoder("latin1").decode(bytes).indexOf("IDAT");
    bytes.fill(0x55, idat + 8, idat + 40);
    await Deno.writeFile(corrupt, bytes);
    assert.equal((await sharp(corrupt).metadata()).width, 400);
    await rejectsWith(preview(svc, corrupt, "big"), { status: 500, code: "preview_failed" });
    assert.deepEqual(await listFiles(cache), []);
  });
});

Deno.test("getPreview() reports a missing or vanished source, or a folder, as 404", async () => {
  await withDirs(async ({ src, cache }) => {
    const svc = createPreviewService({ cacheDir: cache });
    await rejectsWith(preview(svc, `${src}/never.jpg`, "thumb"), { status: 404, code: "not_found" });
    const file = `${src}/gone.jpg`;
    await noisyJpeg(file, { width: 40, height: 30 });
    const source = await scoped(file);
    await Deno.remove(file);
    await rejectsWith(svc.getPreview(source, "thumb"), { status: 404, code: "not_found" });
    await Deno.mkdir(`${src}/dir.jpg`);
    await rejectsWith(preview(svc, `${src}/dir.jpg`, "thumb"), { status: 404, code: "not_found" });
    assert.equal(svc.stats.encoded, 0);
  });
});

Deno.test("dropPreviews() removes every cached preview of a path and nothing else", async () => {
  await withDirs(async ({ src, cache }) => {
    const [a, b] = [`${src}/a.jpg`, `${src}/b.jpg`];
    await noisyJpeg(a, { width: 400, height: 300 });
    await noisyJpeg(b, { width: 400, height: 300 });
    const svc = createPreviewService({ cacheDir: cache });
    const made = [await preview(svc, a, "thumb"), await preview(svc, a, "big")];
    made.push(await svc.getPreview(restat(await scoped(a), { mtimeMs: 5 }), "thumb"));
    const keep = await preview(svc, b, "thumb");
    assert.equal(await svc.dropPreviews(await scoped(a)), 3);
    for (const p of made) await assert.rejects(Deno.stat(p.path), Deno.errors.NotFound);
    await Deno.stat(keep.path);
    assert.equal(await svc.dropPreviews(await scoped(a)), 0);
    await preview(svc, a, "thumb");
    assert.equal(svc.stats.encoded, 5);
  });
});

Deno.test("dropPreviews() of a folder clears the tree below it; of a symlink, nothing", async () => {
  await withDirs(async ({ src, cache }) => {
    await Deno.mkdir(`${src}/album/deep`, { recursive: true });
    const files = [`${src}/album/a.jpg`, `${src}/album/deep/b.jpg`, `${src}/outside.jpg`];
    for (const f of files) await noisyJpeg(f, { width: 40, height: 30 });
    await Deno.symlink(`${src}/outside.jpg`, `${src}/album/link.jpg`);
    const svc = createPreviewService({ cacheDir: cache });
    const made = await Promise.all(files.map((f) => preview(svc, f, "thumb")));
    assert.equal(
      await svc.dropPreviews(await scoped(`${src}/album/link.jpg`, src)),
      0,
      "the target keeps its preview",
    );
    assert.equal(await svc.dropPreviews(await scoped(`${src}/album`, src)), 2);
    await assert.rejects(Deno.stat(made[0].path), Deno.errors.NotFound);
    await assert.rejects(Deno.stat(made[1].path), Deno.errors.NotFound);
    await Deno.stat(made[2].path);
  });
});

Deno.test("getPreview() of a file (or its folder) swapped for a link to an outside image after the check is refused", async () => {
  await withDirs(async ({ src, cache }) => {
    const outside = `${vpathDir(src)}/outside`;
    await Deno.mkdir(`${outside}/album`, { recursive: true });
    await noisyJpeg(`${outside}/secret.jpg`, { width: 40, height: 30 });
    await noisyJpeg(`${outside}/album/a.jpg`, { width: 40, height: 30 });
    await Deno.mkdir(`${src}/album`);
    await noisyJpeg(`${src}/a.jpg`, { width: 40, height: 30 });
    await noisyJpeg(`${src}/album/a.jpg`, { width: 40, height: 30 });
    const svc = createPreviewService({ cacheDir: cache });
    const file = await scoped(`${src}/a.jpg`, src);
    const inFolder = await scoped(`${src}/album/a.jpg`, src);
    await Deno.rename(`${src}/a.jpg`, `${src}/a.moved`);
    await Deno.symlink(`${outside}/secret.jpg`, `${src}/a.jpg`);
    await Deno.rename(`${src}/album`, `${src}/album.moved`);
    await Deno.symlink(`${outside}/album`, `${src}/album`);
    await rejectsWith(svc.getPreview(file, "thumb"), { status: 403, code: "symlink_escape" });
    await rejectsWith(svc.getPreview(inFolder, "big"), { status: 403, code: "symlink_escape" });
    assert.equal(svc.stats.encoded, 0);
    assert.deepEqual(await listFiles(cache), []);
  });
});
