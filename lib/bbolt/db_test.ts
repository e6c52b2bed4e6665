import assert from "node:assert/strict";
import { BoltDb, BoltFormatError } from "./db.ts";
import { fnv1a64, PAGE_HEADER_SIZE } from "./page.ts";

const FIXTURES = new URL("../../tests/fixtures/filebrowser/", import.meta.url);
const small = await Deno.readFile(new URL("small.db", FIXTURES));
const large = await Deno.readFile(new URL("large.db", FIXTURES));
const dec = new TextDecoder();

function idKey(id: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(id));
  return b;
}

function names(b: { entries(): Iterable<{ key: Uint8Array }> }): string[] {
  return [...b.entries()].map((e) => dec.decode(e.key));
}

Deno.test("fnv1a64 matches the reference vectors", () => {
  assert.equal(fnv1a64(new Uint8Array()), 0xcbf29ce484222325n);
  assert.equal(fnv1a64(new TextEncoder().encode("a")), 0xaf63dc4c8601ec8cn);
  assert.equal(fnv1a64(new TextEncoder().encode("foobar")), 0x85944171f73967e8n);
});

Deno.test("bbolt: reads top-level, nested and inline buckets of a storm database", () => {
  const db = BoltDb.open(small);
  assert.deepEqual(names(db.root()), ["Link", "User", "__storm_db", "config"]);
  const users = db.bucket("User")!;
  assert.deepEqual(names(users).slice(-2), ["__storm_index_Username", "__storm_metadata"]);
  assert.equal(JSON.parse(dec.decode(users.get(idKey(2))!)).username, "alice");
  assert.equal(dec.decode(users.bucket("__storm_metadata")!.get("codec")!), "json");
  // storm's list index: one nested bucket per path, inside the index bucket.
  const byPath = db.bucket("Link")!.bucket("__storm_index_Path")!;
  assert.deepEqual(names(byPath.bucket("/photos")!), ["pw5678xy"]);
  assert.equal(users.get("missing"), null);
  assert.equal(users.bucket("missing"), null);
  assert.equal(db.bucket("config")!.bucket("settings"), null, "a plain key is not a bucket");
});

Deno.test("bbolt: branch pages, page overflow and lookups in a multi-page tree", () => {
  const db = BoltDb.open(large);
  const users = db.bucket("User")!;
  const records = [...users.entries()].filter((e) => !e.bucket);
  assert.equal(records.length, 200);
  // Keys come out in order across leaf pages.
  const ids = records.map((e) => Number(new DataView(e.key.buffer, e.key.byteOffset, 8).getBigUint64(0)));
  assert.deepEqual(ids, Array.from({ length: 200 }, (_, i) => i + 1));
  const big = users.get(idKey(7))!;
  assert.ok(big.length > db.meta.pageSize, "user 7 spans overflow pages");
  assert.equal(JSON.parse(dec.decode(big)).commands.length, 600);
  for (const id of [1, 99, 150, 200]) assert.equal(JSON.parse(dec.decode(users.get(idKey(id))!)).id, id);
  const links = [...db.bucket("Link")!.entries()].filter((e) => !e.bucket);
  assert.equal(links.length, 1000);
  assert.ok(db.bucket("Link")!.get("h0000777"));
});

function copy(b: Uint8Array): Uint8Array {
  return new Uint8Array(b);
}

function metaTxid(file: Uint8Array, page: number): bigint {
  return new DataView(file.buffer, page * 4096 + PAGE_HEADER_SIZE + 48, 8).getBigUint64(0, true);
}

Deno.test("bbolt: a bad checksum on the newer meta page falls back to the older one, as bbolt does", () => {
  const newer = metaTxid(small, 0) > metaTxid(small, 1) ? 0 : 1;
  const older = 1 - newer;
  const f = copy(small);
  f[newer * 4096 + PAGE_HEADER_SIZE + 56] ^= 0xff; // checksum byte
  const db = BoltDb.open(f);
  assert.equal(db.meta.page, older);
  assert.equal(db.meta.txid, metaTxid(small, older));
  assert.equal(names(db.bucket("User")!).length, 5);
  // Damage to the older meta page goes unnoticed: the newer one is used.
  const g = copy(small);
  g[older * 4096 + PAGE_HEADER_SIZE + 20] ^= 0xff; // root page id, covered by the checksum
  assert.equal(BoltDb.open(g).meta.page, newer);
});

Deno.test("bbolt: files that are not (or no longer) databases are refused with the reason", () => {
  const random = crypto.getRandomValues(new Uint8Array(16384));
  const wrongMagic = copy(small);
  for (const p of [0, 1]) wrongMagic[p * 4096 + PAGE_HEADER_SIZE] ^= 0x55;
  const bothChecksums = copy(small);
  for (const p of [0, 1]) bothChecksums[p * 4096 + PAGE_HEADER_SIZE + 56] ^= 0x01;
  const cases: [string, Uint8Array, RegExp][] = [
    ["empty", new Uint8Array(), /meta page 0 lies beyond the end/],
    ["random bytes", random, /no bbolt magic/],
    ["text", new TextEncoder().encode('{"users": []}'.repeat(1000)), /not a bbolt database/],
    ["wrong magic", wrongMagic, /meta page 0 has no bbolt magic; meta page 1 has no bbolt magic/],
    ["bad checksums", bothChecksums, /meta page 0 has a bad checksum; meta page 1 has a bad checksum/],
    ["truncated", small.subarray(0, small.length / 2), /points outside the file/],
    ["first page only", small.subarray(0, 4096), /meta page 1 lies beyond the end|points outside the file/],
  ];
  for (const [name, file, re] of cases) {
    assert.throws(() => BoltDb.open(file), (err: Error) => {
      assert.ok(err instanceof BoltFormatError, name);
      assert.match(err.message, re, name);
      return true;
    });
  }
});

Deno.test("bbolt: a damaged page is an error naming the page, never a crash or a loop", () => {
  const db = BoltDb.open(small);
  const root = Number(db.meta.root);
  const walk = (f: Uint8Array) => {
    const d = BoltDb.open(f);
    for (const e of d.root().entries()) {
      if (e.bucket) {
        for (const _ of d.root().open(e).entries()) { /* read */ }
      }
    }
  };
  const cases: [string, (f: Uint8Array) => void, RegExp][] = [
    [
      "element count past the page",
      (f) => new DataView(f.buffer).setUint16(root * 4096 + 10, 0xffff, true),
      /page \d+ .*element/,
    ],
    [
      "wrong page id",
      (f) => new DataView(f.buffer).setUint32(root * 4096, 9999, true),
      /page \d+ carries the id 9999/,
    ],
    [
      "page type",
      (f) => new DataView(f.buffer).setUint16(root * 4096 + 8, 0x10, true),
      /not a branch or leaf page/,
    ],
    [
      "overflow past the end",
      (f) => new DataView(f.buffer).setUint32(root * 4096 + 12, 100000, true),
      /overflows/,
    ],
    [
      "key offset past the page",
      (f) => new DataView(f.buffer).setUint32(root * 4096 + 16 + 4, 1 << 30, true),
      /outside the page/,
    ],
  ];
  for (const [name, damage, re] of cases) {
    const f = copy(small);
    damage(f);
    assert.throws(() => walk(f), (err: Error) => {
      assert.ok(err instanceof BoltFormatError, `${name}: ${err}`);
      assert.match(err.message, re, name);
      return true;
    });
  }
});

Deno.test("bbolt: a bucket whose root points back up the tree is refused", () => {
  const db = BoltDb.open(large);
  // Find the User bucket's entry in the root leaf and point its root at the root page itself.
  const root = Number(db.meta.root);
  const f = copy(large);
  const view = new DataView(f.buffer);
  const count = view.getUint16(root * 4096 + 10, true);
  for (let i = 0; i < count; i++) {
    const el = root * 4096 + 16 + i * 16;
    const pos = view.getUint32(el + 4, true), ksize = view.getUint32(el + 8, true);
    const key = dec.decode(f.subarray(el + pos, el + pos + ksize));
    if (key === "User") view.setBigUint64(el + pos + ksize, BigInt(root), true);
  }
  const d = BoltDb.open(f);
  // The bucket now reads the root leaf: its entries are buckets, and opening them again must terminate.
  const seen: string[] = [];
  const visit = (b: ReturnType<typeof d.root>, depth: number) => {
    for (const e of b.entries()) if (e.bucket && depth < 100) visit(b.open(e), depth + 1);
    seen.push(b.path);
  };
  assert.throws(() => visit(d.root(), 0), /nested too deeply/);
});
