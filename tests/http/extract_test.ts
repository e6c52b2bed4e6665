/** HTTP tests of POST /api/extract: roles, traversal, a hostile archive corpus, limits, conflicts, formats. */
import assert from "node:assert/strict";
import { type FilesFixture, filesFixture, SECRET } from "../fixtures/fs/tree.ts";
import {
  patchZipSizes,
  paxRecord,
  type RawTarEntry,
  rawZip,
  tarOf,
  unicodePathField,
  zipOf,
} from "../../lib/extract/_testing.ts";
import { captureLog } from "./_log.ts";
import type { ExtractEvent } from "../../lib/types.ts";

async function put(f: FilesFixture, name: string, bytes: Uint8Array): Promise<void> {
  await Deno.writeFile(`${f.home}/${name}`, bytes);
}

async function extract(f: FilesFixture, path: string, query = "", as = "u") {
  const r = await f.request(`/api/extract/${path}${query ? "?" + query : ""}`, { method: "POST", as });
  if (r.status !== 200) return { status: r.status, text: await r.text(), events: [] as ExtractEvent[] };
  assert.match(r.headers.get("Content-Type")!, /^application\/x-ndjson/);
  const text = await r.text();
  const events = text.trim().split("\n").map((l) => JSON.parse(l) as ExtractEvent);
  return { status: r.status, text, events };
}

function last(events: ExtractEvent[]): ExtractEvent {
  return events[events.length - 1];
}

async function listTree(dir: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir + (rel ? "/" + rel : ""))) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    out.push(e.isDirectory ? path + "/" : path);
    if (e.isDirectory) out.push(...await listTree(dir, path));
  }
  return out.sort();
}

async function outsideUnchanged(f: FilesFixture, extra: string[] = []): Promise<void> {
  assert.deepEqual(await listTree(f.outside), ["dir/", "dir/victim.txt", ...extra, "secret.txt"]);
  assert.equal(await Deno.readTextFile(`${f.outside}/dir/victim.txt`), SECRET);
}

Deno.test("POST /api/extract: role matrix", async () => {
  const f = await filesFixture();
  try {
    await put(f, "t.tar", tarOf([{ name: "hello.txt", data: "hi" }]));
    assert.equal((await extract(f, "t.tar", "", "")).status, 401);
    assert.equal((await extract(f, "t.tar", "", "ro")).status, 403);
    const u = await extract(f, "t.tar", "destination=/out-u");
    assert.equal(u.status, 200);
    assert.deepEqual(last(u.events), { type: "done", files: 1, folders: 0, skipped: 0, bytes: 2 });
    assert.equal(await Deno.readTextFile(`${f.home}/out-u/hello.txt`), "hi");
    const admin = await extract(f, "home/t.tar", "destination=/home/out-admin", "admin");
    assert.equal(admin.status, 200);
    assert.equal(await Deno.readTextFile(`${f.home}/out-admin/hello.txt`), "hi");
    // replace needs modify
    const nomod = await f.request("/api/extract/t.tar?conflict=replace", { method: "POST", as: "ro" });
    assert.equal(nomod.status, 403);
    await nomod.body?.cancel();
  } finally {
    await f.close();
  }
});

Deno.test("POST /api/extract: traversal of the archive path and the destination is refused", async () => {
  const f = await filesFixture();
  try {
    await put(f, "t.tar", tarOf([{ name: "pwn.txt", data: "x" }]));
    await Deno.writeFile(`${f.outside}/o.tar`, tarOf([{ name: "pwn.txt", data: "x" }]));
    const cases: [string, string, number][] = [
      ["evil-link/o.tar", "", 403],
      ["t.tar", "destination=/evil-link", 403],
      ["t.tar", "destination=/evil-link/dir", 403],
      ["t.tar", "destination=/a", 403],
      ["t.tar", "destination=/.hidden", 403],
      ["t.tar", "destination=/rule-hidden.txt", 403],
      ["t.tar", `destination=${encodeURIComponent("/bad\u0007name")}`, 400],
      ["t.tar", "destination=/a.txt", 409],
      ["a.txt", "", 400],
      ["missing.tar", "", 404],
      ["t.tar", "conflict=maybe", 400],
    ];
    for (const [path, query, status] of cases) {
      const r = await extract(f, path, query);
      assert.equal(r.status, status, `${path}?${query}: ${r.text}`);
    }
    // `..` segments are cleaned to the scope root: the archive lands at the top of the scope.
    const up = await extract(f, "t.tar", "destination=/../../");
    assert.equal(up.status, 200);
    assert.equal(await Deno.readTextFile(`${f.home}/pwn.txt`), "x");
    await outsideUnchanged(f, ["o.tar"]);
  } finally {
    await f.close();
  }
});

const HOSTILE_NAMES: [string, string][] = [
  ["zip slip", "../../x.txt"],
  ["deep zip slip", "ok/../../../x.txt"],
  ["absolute", "/etc/x.txt"],
  ["backslash slip", "..\\..\\x.txt"],
  ["drive letter", "C:/x.txt"],
];

for (const [label, name] of HOSTILE_NAMES) {
  Deno.test(`POST /api/extract refuses an archive with a ${label} entry (400), writing nothing`, async () => {
    const f = await filesFixture();
    try {
      await put(f, "h.tar", tarOf([{ name: "first.txt", data: "1" }, { name, data: "pwned" }]));
      await put(f, "h.zip", await zipOf([{ name: "first.txt", data: "1" }, { name, data: "pwned" }]));
      for (const archive of ["h.tar", "h.zip"]) {
        const r = await extract(f, archive, "destination=/dst");
        assert.equal(r.status, 400, archive);
        assert.match(r.text, /points outside the destination/);
      }
      await assert.rejects(Deno.lstat(`${f.home}/dst`));
      await outsideUnchanged(f);
      assert.equal(await Deno.readTextFile(`${f.root}/secret.txt`), SECRET);
    } finally {
      await f.close();
    }
  });
}

Deno.test("POST /api/extract skips links, control characters, hidden and denied names, and reports them", async () => {
  const f = await filesFixture();
  try {
    const entries: RawTarEntry[] = [
      { name: "ok.txt", data: "ok" },
      { name: "link-out", type: "2", link: "../../../../etc/passwd" },
      { name: "hard-out", type: "1", link: "../secret.txt" },
      { name: "fifo", type: "6" },
      { name: "bad\u0001name.txt", data: "ctl" },
      { name: "cr\rlf.txt", data: "ctl" },
      { name: ".env", data: "dot" },
      { name: "evil-link/pwn.txt", data: "pwn" },
      { name: "escape.txt", data: "overwrite through a link" },
    ];
    await put(f, "s.tar", tarOf(entries));
    const r = await extract(f, "s.tar", "conflict=replace");
    assert.equal(r.status, 200, r.text);
    const skips = r.events.filter((e) => e.type === "skip").map((e) =>
      e.type === "skip" && [e.name, e.reason]
    );
    assert.deepEqual(skips, [
      ["link-out", "symlink"],
      ["hard-out", "hardlink"],
      ["fifo", "special"],
      ["bad\u0001name.txt", "bad_name"],
      ["cr\rlf.txt", "bad_name"],
      [".env", "hidden"],
      ["evil-link/pwn.txt", "denied"],
      ["escape.txt", "denied"],
    ]);
    assert.deepEqual(last(r.events), { type: "done", files: 1, folders: 0, skipped: 8, bytes: 2 });
    assert.equal(await Deno.readTextFile(`${f.home}/.env`), "DOT");
    await assert.rejects(Deno.lstat(`${f.home}/link-out`));
    await outsideUnchanged(f);
    // Zip symlink entries too; a rule-denied folder (`/a` for u) is skipped.
    await put(
      f,
      "s.zip",
      await zipOf([{ name: "zlink", data: "/etc/passwd", mode: 0o120777 }, { name: "a/new.txt", data: "n" }]),
    );
    const z = await extract(f, "s.zip", "destination=/z");
    assert.deepEqual(z.events.filter((e) => e.type === "skip").map((e) => e.type === "skip" && e.reason), [
      "symlink",
    ]);
    assert.equal(await Deno.readTextFile(`${f.home}/z/a/new.txt`), "n", "/z/a is not /a");
    const denied = await put(f, "d.zip", await zipOf([{ name: "a/new.txt", data: "n" }]));
    assert.equal(denied, undefined);
    const d = await extract(f, "d.zip");
    assert.deepEqual(d.events.filter((e) => e.type === "skip").map((e) => e.type === "skip" && e.reason), [
      "denied",
    ]);
    await assert.rejects(Deno.lstat(`${f.home}/a/new.txt`));
  } finally {
    await f.close();
  }
});

Deno.test("POST /api/extract stops zip bombs with 413 before writing", async () => {
  const f = await filesFixture({
    config: { extractLimits: { maxEntries: 5, maxBytes: 3 << 20, maxRatio: 200 } },
  });
  try {
    const zeros = new Uint8Array(4 << 20);
    // A small zip whose central directory declares 4 GiB: past the ratio (and the size) limit.
    await put(f, "declared.zip", patchZipSizes(await zipOf([{ name: "big.bin", data: "tiny" }]), 0xffffffff));
    await put(f, "zeros.zip", await zipOf([{ name: "zeros.bin", data: zeros }]));
    await put(f, "zeros.tar", tarOf([{ name: "zeros.bin", data: zeros }]));
    await put(f, "many.tar", tarOf([1, 2, 3, 4, 5, 6].map((n) => ({ name: `${n}.txt`, data: "x" }))));
    const gz = new Blob([tarOf([{ name: "zeros.bin", data: new Uint8Array(2 << 20) }])]).stream()
      .pipeThrough(new CompressionStream("gzip"));
    await put(f, "ratio.tar.gz", new Uint8Array(await new Response(gz).arrayBuffer()));
    const cases: [string, RegExp][] = [
      ["declared.zip", /more than 3145728 bytes|times its size/],
      ["zeros.zip", /more than 3145728 bytes/],
      ["zeros.tar", /more than 3145728 bytes/],
      ["many.tar", /more than 5 entries/],
      ["ratio.tar.gz", /more than 200 times its size/],
    ];
    for (const [name, message] of cases) {
      const r = await extract(f, name, "destination=/bomb");
      assert.equal(r.status, 413, `${name}: ${r.text}`);
      assert.match(r.text, /^413/);
      assert.doesNotMatch(r.text, message, "the wire body is plain status text");
    }
    await assert.rejects(Deno.lstat(`${f.home}/bomb`));
  } finally {
    await f.close();
  }
});

Deno.test("POST /api/extract: a zip that lies about a size fails with a 400 line and keeps the old file", async () => {
  const f = await filesFixture();
  try {
    await Deno.writeTextFile(`${f.home}/keep.txt`, "OLD");
    const data = "x".repeat(5000);
    await put(f, "liar.zip", patchZipSizes(await zipOf([{ name: "keep.txt", data }]), 10));
    const r = await extract(f, "liar.zip", "conflict=replace");
    assert.equal(r.status, 200, r.text);
    const end = last(r.events);
    assert.equal(end.type, "error");
    assert.equal(end.type === "error" && end.status, 400);
    assert.equal(await Deno.readTextFile(`${f.home}/keep.txt`), "OLD");
    assert.deepEqual((await listTree(f.home)).filter((n) => n.includes(".fb-tmp-")), []);
  } finally {
    await f.close();
  }
});

Deno.test("POST /api/extract refuses damaged zip directories and hidden slips with a 400 before writing, no ERROR line", async () => {
  const f = await filesFixture();
  const logs = captureLog();
  try {
    const ok = rawZip([{ name: "a.txt", data: "a" }, { name: "b.txt", data: "b" }]);
    const cut = ok.bytes.slice(0, ok.eocd + 10);
    const counted = ok.bytes.slice();
    new DataView(counted.buffer).setUint16(ok.eocd + 10, 3, true);
    const overrun = ok.bytes.slice();
    new DataView(overrun.buffer).setUint16(ok.directory + 28, 0xffff, true);
    const raw = new TextEncoder().encode("fine.txt");
    // The raw name is harmless; the Unicode Path field (which zip.js honours) climbs out.
    const hidden = rawZip([{ name: raw, data: "x", extra: unicodePathField("../../x.txt", raw) }]).bytes;
    // Content we cannot read is refused up front too, so the readable entry before it is not written either.
    const encrypted = rawZip([{ name: "a.txt", data: "a" }, { name: "e.txt", data: "e", flags: 1 }]).bytes;
    const method = ok.bytes.slice();
    new DataView(method.buffer).setUint16(ok.directory + 10, 14, true);
    const table: [string, Uint8Array, RegExp][] = [
      ["encrypted.zip", encrypted, /"e\.txt" is encrypted/],
      ["method.zip", method, /compression method 14/],
      ["cut.zip", cut, /damaged or unsupported/],
      ["counted.zip", counted, /3 entries cannot fit/],
      ["overrun.zip", overrun, /runs past the central directory/],
      ["junk.zip", new Uint8Array(1000).fill(0x50), /no end of central directory/],
      ["hidden.zip", hidden, /points outside the destination/],
    ];
    for (const [name, bytes, message] of table) {
      await put(f, name, bytes);
      const r = await extract(f, name, "destination=/dst");
      assert.equal(r.status, 400, name);
      assert.match(r.text, message, name);
    }
    await assert.rejects(Deno.lstat(`${f.home}/dst`));
    await outsideUnchanged(f);
    assert.deepEqual(logs.errors(), []);
  } finally {
    logs.stop();
    await f.close();
  }
});

Deno.test("POST /api/extract: zip content that fails its CRC-32 or does not inflate ends with a 400 line, no ERROR", async () => {
  const f = await filesFixture();
  const logs = captureLog();
  try {
    const stored = rawZip([{ name: "ok.txt", data: "fine" }, { name: "bad.txt", data: "hello world" }]).bytes;
    const crc = stored.slice();
    const content = new TextDecoder("latin1").decode(stored).indexOf("hello world");
    crc[content] ^= 1; // the content changes, its CRC-32 and size do not
    const deflated = await zipOf([{ name: "z.txt", data: "hello hello hello hello" }]);
    const v = new DataView(deflated.buffer, deflated.byteOffset);
    const inflate = deflated.slice();
    const data = 30 + v.getUint16(26, true) + v.getUint16(28, true);
    inflate.fill(0xff, data, data + 4); // a reserved block type
    for (const [name, bytes] of [["crc.zip", crc], ["inflate.zip", inflate]] as const) {
      await put(f, name, bytes);
      const r = await extract(f, name, "destination=/out-" + name);
      assert.equal(r.status, 200, r.text);
      const end = last(r.events);
      assert.equal(end.type, "error", name);
      assert.equal(end.type === "error" && end.status, 400, name);
      assert.deepEqual(
        (await listTree(f.home)).filter((n) => n.includes(".fb-tmp-") || n.includes("bad.txt")),
        [],
      );
    }
    assert.deepEqual(logs.errors(), []);
  } finally {
    logs.stop();
    await f.close();
  }
});

Deno.test("POST /api/extract: duplicate names follow the conflict policy; existing files are kept on skip", async () => {
  const f = await filesFixture();
  try {
    await Deno.mkdir(`${f.home}/d`);
    await Deno.writeTextFile(`${f.home}/d/old.txt`, "OLD");
    const dup = tarOf([
      { name: "dup.txt", data: "first" },
      { name: "dup.txt", data: "second" },
      { name: "old.txt", data: "new" },
      { name: "dir", type: "5" },
      { name: "dir", data: "a file where a folder is" },
    ]);
    await put(f, "dup.tar", dup);
    const skip = await extract(f, "dup.tar", "destination=/d&conflict=skip");
    assert.deepEqual(skip.events.filter((e) => e.type === "skip").map((e) => e.type === "skip" && e.reason), [
      "exists",
      "exists",
      "is_folder",
    ]);
    assert.equal(await Deno.readTextFile(`${f.home}/d/dup.txt`), "first");
    assert.equal(await Deno.readTextFile(`${f.home}/d/old.txt`), "OLD");
    await extract(f, "dup.tar", "destination=/d&conflict=replace");
    assert.equal(await Deno.readTextFile(`${f.home}/d/dup.txt`), "second");
    assert.equal(await Deno.readTextFile(`${f.home}/d/old.txt`), "new");
    await extract(f, "dup.tar", "destination=/r&conflict=rename");
    assert.deepEqual(await listTree(`${f.home}/r`), ["dir/", "dup(1).txt", "dup.txt", "old.txt"]);
    assert.equal(await Deno.readTextFile(`${f.home}/r/dup(1).txt`), "second");
  } finally {
    await f.close();
  }
});

Deno.test("POST /api/extract honours PAX path overrides and GNU long names", async () => {
  const f = await filesFixture();
  try {
    const long = "deep/" + "n".repeat(150) + "/é ünïcode.txt";
    const gnu = "gnu/" + "g".repeat(180) + ".txt";
    await put(
      f,
      "pax.tar",
      tarOf([
        { name: "PaxHeaders/x", type: "x", data: paxRecord("path", long) },
        { name: "truncated-name", data: "pax" },
        { name: "PaxHeaders/y", type: "x", data: paxRecord("path", "../../escape.txt") },
        { name: "innocent.txt", data: "no" },
        { name: "././@LongLink", type: "L", data: gnu + "\0" },
        { name: "gnu-truncated", data: "gnu" },
      ]),
    );
    const hostile = await extract(f, "pax.tar", "destination=/p");
    assert.equal(hostile.status, 400, "the PAX path ../../escape.txt is what counts");
    await put(
      f,
      "pax2.tar",
      tarOf([
        { name: "PaxHeaders/x", type: "x", data: paxRecord("path", long) },
        { name: "truncated-name", data: "pax" },
        { name: "././@LongLink", type: "L", data: gnu + "\0" },
        { name: "gnu-truncated", data: "gnu" },
      ]),
    );
    const r = await extract(f, "pax2.tar", "destination=/p");
    assert.equal(r.status, 200, r.text);
    assert.equal(await Deno.readTextFile(`${f.home}/p/${long}`), "pax");
    assert.equal(await Deno.readTextFile(`${f.home}/p/${gnu}`), "gnu");
  } finally {
    await f.close();
  }
});

async function run(cmd: string, args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "null", stderr: "piped" }).output();
  assert.ok(out.success, `${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

Deno.test("POST /api/extract round-trips a small tree in every format (system zip/tar/gzip/bzip2/xz/zstd)", async () => {
  const f = await filesFixture();
  const src = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${src}/tree/sub/empty`, { recursive: true });
    await Deno.writeTextFile(`${src}/tree/a.txt`, "alpha");
    await Deno.writeTextFile(`${src}/tree/sub/b ü.txt`, "beta".repeat(1000));
    await Deno.writeFile(`${src}/tree/sub/bin`, crypto.getRandomValues(new Uint8Array(50_000)));
    await run("tar", ["-cf", "tree.tar", "tree"], src);
    await run("zip", ["-qr", "tree.zip", "tree"], src);
    for (const [tool, ext] of [["gzip", "gz"], ["bzip2", "bz2"], ["xz", "xz"], ["zstd", "zst"]]) {
      await run("sh", ["-c", `${tool} -c tree.tar > tree.tar.${ext}`], src);
    }
    const expected = await listTree(`${src}/tree`);
    for (
      const archive of ["tree.zip", "tree.tar", "tree.tar.gz", "tree.tar.bz2", "tree.tar.xz", "tree.tar.zst"]
    ) {
      await Deno.copyFile(`${src}/${archive}`, `${f.home}/${archive}`);
      const r = await extract(f, archive, `destination=/x-${archive}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(last(r.events).type, "done", `${archive}: ${r.text}`);
      const out = `${f.home}/x-${archive}/tree`;
      assert.deepEqual(await listTree(out), expected, archive);
      for (const file of expected.filter((p) => !p.endsWith("/"))) {
        assert.deepEqual(await Deno.readFile(`${out}/${file}`), await Deno.readFile(`${src}/tree/${file}`));
      }
    }
  } finally {
    await Deno.remove(src, { recursive: true });
    await f.close();
  }
});

Deno.test("POST /api/extract: a client that goes away stops the extraction; no temp file is left", async () => {
  const f = await filesFixture();
  try {
    const entries = Array.from(
      { length: 400 },
      (_, i) => ({ name: `f${i}.bin`, data: new Uint8Array(64 << 10) }),
    );
    await put(f, "big.tar", tarOf(entries));
    const abort = new AbortController();
    const r = await f.app.request("/api/extract/big.tar?destination=/big", {
      method: "POST",
      headers: { "X-Auth": f.tokens.u },
      signal: abort.signal,
    });
    assert.equal(r.status, 200);
    const reader = r.body!.getReader();
    const first = await reader.read();
    assert.match(new TextDecoder().decode(first.value), /"type":"start"/);
    abort.abort();
    await reader.cancel();
    // Let the write pass notice and clean up.
    for (let i = 0; i < 50; i++) await new Promise((res) => setTimeout(res, 20));
    const names = await listTree(`${f.home}/big`);
    assert.ok(names.length < 400, `stopped early (${names.length} files)`);
    assert.deepEqual(names.filter((n) => n.includes(".fb-tmp-")), []);
    for (const name of names) assert.equal((await Deno.stat(`${f.home}/big/${name}`)).size, 64 << 10);
  } finally {
    await f.close();
  }
});
