/**
 * Small files (lib/fs/download.ts SMALL_BODY) are answered from one read into memory, larger ones from a stream:
 * on real connections both carry the same headers for GET and HEAD, and a file changed between requests is never
 * answered with its old bytes or validators.
 */
import assert from "node:assert/strict";
import { SMALL_BODY } from "../../lib/fs/download.ts";
import { serveDav } from "./_dav.ts";

const PARALLEL = 16;

/** Headers that vary per response (not per file). */
const VOLATILE = new Set(["date"]);

function headersOf(res: Response): Record<string, string> {
  return Object.fromEntries([...res.headers].filter(([k]) => !VOLATILE.has(k)));
}

Deno.test("GET /api/raw: small and large files, GET and HEAD, carry the same headers", async () => {
  const srv = await serveDav({ users: [{ username: "ann", perm: { download: true } }] });
  const { t, origin } = srv;
  try {
    const files = { "small.txt": "s".repeat(4096), "large.txt": "l".repeat(SMALL_BODY + 1) };
    for (const [name, content] of Object.entries(files)) {
      await Deno.writeTextFile(`${t.root}/${name}`, content);
    }
    const shapes: string[][] = [];
    for (const [name, content] of Object.entries(files)) {
      for (const query of ["", "?inline=true"]) {
        const url = `${origin}/api/raw/${name}${query}`;
        const get = await fetch(url, { headers: { "X-Auth": t.tokens.ann } });
        assert.equal(get.status, 200);
        assert.equal(await get.text(), content);
        const head = await fetch(url, { method: "HEAD", headers: { "X-Auth": t.tokens.ann } });
        assert.equal(head.status, 200);
        assert.equal(await head.text(), "");
        assert.deepEqual(headersOf(head), headersOf(get), `${name}${query}`);
        const h = headersOf(get);
        assert.equal(h["content-length"], String(content.length));
        assert.equal(h["x-content-type-options"], "nosniff");
        assert.equal(h["accept-ranges"], "bytes");
        assert.ok(h["content-security-policy"], "CSP");
        assert.ok(h["etag"] && h["last-modified"], "validators");
        assert.equal(
          h["content-disposition"],
          `${query ? "inline" : "attachment"}; filename*=utf-8''${name}`,
        );
        if (query) assert.match(h["content-security-policy"], /sandbox/);
        shapes.push(Object.keys(h).sort());
      }
      const part = await fetch(`${origin}/api/raw/${name}`, {
        headers: { "X-Auth": t.tokens.ann, Range: "bytes=10-19" },
      });
      assert.equal(part.status, 206);
      assert.equal(part.headers.get("Content-Range"), `bytes 10-19/${content.length}`);
      assert.equal(await part.text(), content.slice(10, 20));
    }
    // The in-memory answer has exactly the streamed answer's header names.
    assert.deepEqual(shapes[0], shapes[2]);
    assert.deepEqual(shapes[1], shapes[3]);
  } finally {
    await srv.close();
  }
});

Deno.test("GET /api/raw: a small file changed between requests is never answered from before", async () => {
  const srv = await serveDav({ users: [{ username: "ann", perm: { download: true } }] });
  const { t, origin } = srv;
  const get = async () => {
    const res = await fetch(`${origin}/api/raw/f.txt`, { headers: { "X-Auth": t.tokens.ann } });
    return {
      body: await res.text(),
      etag: res.headers.get("ETag"),
      length: res.headers.get("Content-Length"),
    };
  };
  try {
    let mtime = 1_700_000_000;
    for (const content of ["version one", "version two", "v3", "a longer fourth version of the file"]) {
      await Deno.writeTextFile(`${t.root}/f.txt`, content);
      await Deno.utime(`${t.root}/f.txt`, mtime, mtime++);
      const answers = await Promise.all(Array.from({ length: PARALLEL }, get));
      const etags = new Set(answers.map((a) => a.etag));
      assert.equal(etags.size, 1, content);
      for (const a of answers) {
        assert.equal(a.body, content);
        assert.equal(a.length, String(new TextEncoder().encode(content).length));
      }
      const now = await Deno.stat(`${t.root}/f.txt`);
      assert.equal([...etags][0], `"${now.mtime!.getTime().toString(16)}-${now.size.toString(16)}"`);
    }
  } finally {
    await srv.close();
  }
});
