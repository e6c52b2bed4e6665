import assert from "node:assert/strict";
import { HttpError } from "../errors.ts";
import {
  contentDisposition,
  discardBody,
  type DownloadRequest,
  encodeFilename,
  FILE_CHUNK,
  type FileDownload,
  fileEtag,
  planDownload,
  SMALL_BODY,
} from "./download.ts";
import { resolveScoped } from "./gate.ts";
import { ctxFor, makeTree, withTempRoot } from "./_testing.ts";

async function text(body: FileDownload["body"]): Promise<string> {
  return body === null ? "" : await new Response(body).text();
}

Deno.test("contentDisposition() percent-encodes names like a path segment", () => {
  assert.equal(contentDisposition("document.pdf", { inline: true }), "inline; filename*=utf-8''document.pdf");
  assert.equal(
    contentDisposition("my file.txt", { inline: false }),
    "attachment; filename*=utf-8''my%20file.txt",
  );
  assert.equal(encodeFilename("日本語.txt"), "%E6%97%A5%E6%9C%AC%E8%AA%9E.txt");
  assert.equal(encodeFilename("a!'()*,;?#%\"b$&+:=@~"), "a%21%27%28%29%2A%2C%3B%3F%23%25%22b$&+:=@~");
});

Deno.test("planDownload() serves whole files, ranges, 304 and 416", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "f.txt": "0123456789" });
    const p = await resolveScoped(ctxFor(root), "/f.txt", "download");
    const full = await planDownload(p, { inline: false });
    assert.equal(full.status, 200);
    assert.equal(full.headers["Content-Type"], "application/octet-stream");
    assert.equal(full.headers["Content-Disposition"], "attachment; filename*=utf-8''f.txt");
    assert.equal(full.headers["Content-Length"], "10");
    assert.equal(await text(full.body), "0123456789");
    const part = await planDownload(p, { inline: false, range: "bytes=2-4" });
    assert.equal(part.status, 206);
    assert.equal(part.headers["Content-Range"], "bytes 2-4/10");
    assert.equal(await text(part.body), "234");
    assert.equal(await text((await planDownload(p, { inline: false, range: "bytes=-3" })).body), "789");
    assert.equal(await text((await planDownload(p, { inline: false, range: "bytes=7-" })).body), "789");
    await assert.rejects(
      planDownload(p, { inline: false, range: "bytes=10-" }),
      (e: HttpError) => e.status === 416,
    );
    const etag = full.headers["ETag"];
    const cached = await planDownload(p, { inline: false, ifNoneMatch: etag });
    assert.equal(cached.status, 304);
    assert.equal(cached.body, null);
    assert.equal(
      (await planDownload(p, { inline: false, ifModifiedSince: full.headers["Last-Modified"] })).status,
      304,
    );
    const ifRange = await planDownload(p, { inline: false, range: "bytes=2-4", ifRange: '"other"' });
    assert.equal(ifRange.status, 200);
    await discardBody(ifRange);
  });
});

Deno.test("planDownload() never renders HTML/SVG inline and sandboxes inline answers", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, {
      "x.html": "<script>alert(1)</script>",
      "x.svg": "<svg/>",
      "p.png": "png",
      "d.pdf": "%PDF-",
    });
    const ctx = ctxFor(root);
    for (const name of ["x.html", "x.svg"]) {
      const d = await planDownload(await resolveScoped(ctx, `/${name}`, "download"), { inline: true });
      assert.match(d.headers["Content-Disposition"], /^attachment;/, name);
      assert.match(d.headers["Content-Security-Policy"], /sandbox/);
      assert.equal(d.headers["X-Content-Type-Options"], "nosniff");
      await discardBody(d);
    }
    const png = await planDownload(await resolveScoped(ctx, "/p.png", "download"), { inline: true });
    assert.match(png.headers["Content-Disposition"], /^inline;/);
    assert.equal(png.headers["Content-Type"], "image/png");
    assert.match(png.headers["Content-Security-Policy"], /sandbox/);
    await discardBody(png);
    const pdf = await planDownload(await resolveScoped(ctx, "/d.pdf", "download"), { inline: true });
    assert.equal(pdf.headers["Content-Security-Policy"], "script-src 'none';");
    await discardBody(pdf);
  });
});

Deno.test("planDownload() answers range edge cases byte-exactly", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "f.txt": "0123456789" });
    const p = await resolveScoped(ctxFor(root), "/f.txt", "download");
    const cases: [string, string, string][] = [
      ["bytes=-1", "bytes 9-9/10", "9"],
      ["bytes=-10", "bytes 0-9/10", "0123456789"],
      ["bytes=-999", "bytes 0-9/10", "0123456789"],
      ["bytes=9-9", "bytes 9-9/10", "9"],
      ["bytes=9-", "bytes 9-9/10", "9"],
      ["bytes=0-0", "bytes 0-0/10", "0"],
      ["bytes=0-", "bytes 0-9/10", "0123456789"],
      ["bytes=3-999", "bytes 3-9/10", "3456789"],
      ["bytes=8-9", "bytes 8-9/10", "89"],
    ];
    for (const [range, contentRange, body] of cases) {
      const res = await planDownload(p, { inline: false, range });
      assert.equal(res.status, 206, range);
      assert.equal(res.headers["Content-Range"], contentRange, range);
      assert.equal(res.headers["Content-Length"], String(body.length), range);
      assert.equal(await text(res.body), body, range);
    }
    for (const range of ["bytes=-0", "bytes=10-", "bytes=10-20"]) {
      await assert.rejects(
        planDownload(p, { inline: false, range }),
        (e: HttpError) => e.status === 416,
        range,
      );
    }
  });
});

Deno.test("planDownload() serves ranges past 4 GiB of a sparse file, bounded and to the end", async () => {
  await withTempRoot(async ({ root }) => {
    const size = 5 * 1024 ** 3 + 7;
    const at = 5 * 1024 ** 3 - 3;
    {
      using f = await Deno.open(`${root}/big.bin`, { write: true, create: true });
      await f.truncate(size);
      await f.seek(at, Deno.SeekMode.Start);
      await f.write(new TextEncoder().encode("abcdefghij"));
    }
    const p = await resolveScoped(ctxFor(root), "/big.bin", "download");
    const bounded = await planDownload(p, { inline: false, range: `bytes=${at + 1}-${at + 4}` });
    assert.equal(bounded.headers["Content-Range"], `bytes ${at + 1}-${at + 4}/${size}`);
    assert.equal(await text(bounded.body), "bcde");
    const tail = await planDownload(p, { inline: false, range: `bytes=${at}-` });
    assert.equal(tail.headers["Content-Length"], "10");
    assert.equal(await text(tail.body), "abcdefghij");
    assert.equal(await text((await planDownload(p, { inline: false, range: "bytes=-2" })).body), "ij");
    // A bounded range across a hole reads the hole as zeros.
    const hole = await planDownload(p, { inline: false, range: `bytes=${at - 2}-${at}` });
    assert.deepEqual(new Uint8Array(await new Response(hole.body).arrayBuffer()), new Uint8Array([0, 0, 97]));
  });
});

Deno.test("planDownload() closes the file when a range body is cancelled", async () => {
  await withTempRoot(async ({ root }) => {
    // Larger than SMALL_BODY, so the body is a stream over an open file.
    await makeTree(root, { "f.txt": "0123456789".repeat(SMALL_BODY / 5) });
    const p = await resolveScoped(ctxFor(root), "/f.txt", "download");
    for (const range of ["bytes=1-3", "bytes=1-"]) {
      const res = await planDownload(p, { inline: false, range });
      // The test sanitizer fails the test if a file stays open.
      await discardBody(res);
    }
  });
});

Deno.test("planDownload() streams bounded ranges over several chunks byte-exactly", async () => {
  await withTempRoot(async ({ root }) => {
    const size = 2 * FILE_CHUNK + 12_345;
    const bytes = new Uint8Array(size).map((_, i) => (i * 31 + (i >> 12)) & 0xff);
    await Deno.writeFile(`${root}/big.bin`, bytes);
    const p = await resolveScoped(ctxFor(root), "/big.bin", "download");
    const cases: [string, number, number][] = [
      [`bytes=1-${size - 2}`, 1, size - 2],
      [`bytes=${FILE_CHUNK - 1}-${FILE_CHUNK}`, FILE_CHUNK - 1, FILE_CHUNK],
      [`bytes=0-${FILE_CHUNK * 2}`, 0, FILE_CHUNK * 2],
      [`bytes=5-`, 5, size - 1],
      [`bytes=-${FILE_CHUNK + 3}`, size - FILE_CHUNK - 3, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await planDownload(p, { inline: false, range });
      assert.equal(res.status, 206, range);
      assert.equal(res.headers["Content-Range"], `bytes ${start}-${end}/${size}`, range);
      assert.equal(res.headers["Content-Length"], String(end - start + 1), range);
      const got = new Uint8Array(await new Response(res.body).arrayBuffer());
      assert.equal(got.length, end - start + 1, range);
      assert.ok(got.every((b, i) => b === bytes[start + i]), range);
    }
  });
});

Deno.test("planDownload() never sends past a bounded range when the file grew after planning", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "f.txt": "0123456789" });
    const p = await resolveScoped(ctxFor(root), "/f.txt", "download");
    const res = await planDownload(p, { inline: false, range: "bytes=2-5" });
    await Deno.writeTextFile(`${root}/f.txt`, "abcdefghijklmnopqrstuvwxyz".repeat(100_000), { append: true });
    assert.equal(await text(res.body), "2345");
    // A file that got shorter ends the body early rather than failing it.
    await Deno.writeTextFile(`${root}/g.txt`, "x".repeat(3_000_000));
    const g = await resolveScoped(ctxFor(root), "/g.txt", "download");
    const short = await planDownload(g, { inline: false, range: "bytes=2599990-2599999" });
    await Deno.truncate(`${root}/g.txt`, 2_599_995);
    assert.equal(await text(short.body), "xxxxx");
  });
});

Deno.test("planDownload() answers several ranges and failed If-Range conditions with the whole file", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "f.txt": "0123456789" });
    const p = await resolveScoped(ctxFor(root), "/f.txt", "download");
    const whole = await planDownload(p, { inline: false });
    const etag = whole.headers["ETag"];
    const lastModified = whole.headers["Last-Modified"];
    await discardBody(whole);
    const cases: [Partial<DownloadRequest>, number, string][] = [
      [{ range: "bytes=0-1,4-5" }, 200, "0123456789"],
      [{ range: "bytes=0-0, 9-9" }, 200, "0123456789"],
      [{ range: "items=0-1" }, 200, "0123456789"],
      [{ range: "bytes=5-2" }, 200, "0123456789"],
      [{ range: "bytes=2-4", ifRange: etag }, 206, "234"],
      [{ range: "bytes=2-4", ifRange: `W/${etag}` }, 200, "0123456789"],
      [{ range: "bytes=2-4", ifRange: '"0-0"' }, 200, "0123456789"],
      [{ range: "bytes=2-4", ifRange: lastModified }, 206, "234"],
      [{ range: "bytes=2-4", ifRange: new Date(0).toUTCString() }, 200, "0123456789"],
      [{ range: "bytes=2-4", ifRange: "not a date" }, 200, "0123456789"],
    ];
    for (const [request, status, body] of cases) {
      const res = await planDownload(p, { inline: false, ...request });
      const label = JSON.stringify(request);
      assert.equal(res.status, status, label);
      assert.equal(res.headers["Content-Length"], String(body.length), label);
      assert.equal(await text(res.body), body, label);
    }
  });
});

Deno.test("planDownload() answers small files from their bytes, large ones from a stream, with the same headers", async () => {
  await withTempRoot(async ({ root }) => {
    const small = "s".repeat(SMALL_BODY);
    const large = "l".repeat(SMALL_BODY + 1);
    await makeTree(root, { "small.txt": small, "large.txt": large });
    for (
      const [name, content, isBytes] of [["small.txt", small, true], ["large.txt", large, false]] as const
    ) {
      const p = await resolveScoped(ctxFor(root), `/${name}`, "download");
      const res = await planDownload(p, { inline: false });
      assert.equal(res.body instanceof Uint8Array, isBytes, name);
      assert.deepEqual(Object.keys(res.headers).sort(), [
        "Accept-Ranges",
        "Cache-Control",
        "Content-Disposition",
        "Content-Length",
        "Content-Type",
        "ETag",
        "Last-Modified",
        "X-Content-Type-Options",
      ]);
      assert.equal(res.headers["Content-Length"], String(content.length));
      assert.equal(res.headers["ETag"], fileEtag(p.stat!));
      assert.equal(await text(res.body), content);
      const part = await planDownload(p, { inline: false, range: "bytes=3-6" });
      assert.equal(part.status, 206);
      assert.equal(part.headers["Content-Range"], `bytes 3-6/${content.length}`);
      assert.equal(await text(part.body), content.slice(3, 7));
    }
  });
});

Deno.test("planDownload() describes the bytes it read when a small file changed after the gate looked", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "f.txt": "old" });
    const p = await resolveScoped(ctxFor(root), "/f.txt", "download");
    // Rewritten between the gate's stat and the plan: a different size and a later mtime.
    await Deno.writeTextFile(`${root}/f.txt`, "newer content");
    await Deno.utime(`${root}/f.txt`, 2_000_000_000, 2_000_000_000);
    const res = await planDownload(p, { inline: false });
    const now = await Deno.stat(`${root}/f.txt`);
    assert.equal(await text(res.body), "newer content");
    assert.equal(res.headers["Content-Length"], "13");
    assert.equal(res.headers["ETag"], fileEtag(now));
    assert.equal(res.headers["Last-Modified"], now.mtime!.toUTCString());
    // Grown past SMALL_BODY meanwhile: streamed, still whole and consistent with Content-Length.
    const q = await resolveScoped(ctxFor(root), "/f.txt", "download");
    await Deno.writeTextFile(`${root}/f.txt`, "g".repeat(SMALL_BODY + 10));
    const grown = await planDownload(q, { inline: false });
    const got = await text(grown.body);
    assert.equal(got.length, Number(grown.headers["Content-Length"]));
  });
});

Deno.test("planDownload() sniffs the type of an inline file without extension from the bytes it sends", async () => {
  await withTempRoot(async ({ root }) => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    await Deno.writeFile(`${root}/picture`, png);
    await Deno.writeFile(`${root}/big-picture`, new Uint8Array(SMALL_BODY + 1).map((_, i) => png[i] ?? 0));
    for (const name of ["picture", "big-picture"]) {
      const res = await planDownload(await resolveScoped(ctxFor(root), `/${name}`, "download"), {
        inline: true,
      });
      assert.equal(res.headers["Content-Type"], "image/png", name);
      assert.match(res.headers["Content-Security-Policy"], /sandbox/);
      await discardBody(res);
    }
  });
});

Deno.test("planDownload() neither blocks on a FIFO nor follows a link swapped in after the gate looked", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "f.txt": "public", "g.txt": "public", "outside/secret.txt": "SECRET" });
    const ctx = ctxFor(root);
    const f = await resolveScoped(ctx, "/f.txt", "download");
    const g = await resolveScoped(ctx, "/g.txt", "download");
    await Deno.remove(`${root}/f.txt`);
    const made = await new Deno.Command("mkfifo", { args: [`${root}/f.txt`] }).output();
    assert.equal(made.code, 0);
    const fifo = await planDownload(f, { inline: false });
    assert.equal(fifo.body, null);
    await Deno.remove(`${root}/g.txt`);
    await Deno.symlink(`${root}/outside/secret.txt`, `${root}/g.txt`);
    await assert.rejects(
      planDownload(g, { inline: false }),
      (err) => err instanceof HttpError && err.status === 403,
    );
  });
});
