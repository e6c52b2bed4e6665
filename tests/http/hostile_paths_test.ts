/**
 * Property test: 10,000 random hostile paths (control characters, long segments, percent-encodings, overlong
 * UTF-8, `..` mixes, backslashes, U+2028/9) against every path-taking endpoint. No answer is a 500, no ERROR is
 * logged, no secret leaks and nothing outside the user's scope changes. Seeded: set HOSTILE_SEED to replay a run
 * (a failure names the seed, the partition and the request number).
 */
import assert from "node:assert/strict";
import { filesFixture, SECRET } from "../fixtures/fs/tree.ts";
import { shares } from "../../lib/storage/mod.ts";
import { captureLog } from "./_log.ts";
import { prng } from "../../lib/fs/_testing.ts";

const SEED = Number(Deno.env.get("HOSTILE_SEED") || 0x5eed_2026);
const ITERATIONS = Number(Deno.env.get("HOSTILE_ITERATIONS") || 10_000);
/**
 * Independent fixtures (own root and KV) run side by side, each with its share of the requests in order: about
 * 3x faster than one, and still deterministic.
 */
const PARTITIONS = 4;

const PIECES = [
  "..",
  ".",
  "",
  "%2e%2e",
  "%2E%2e",
  ".%2e",
  "%2e.",
  "..%2F..",
  "%2e%2e%2f",
  "%252e%252e",
  "%2F",
  "%2f",
  "%5C",
  "\\",
  "..\\..",
  "%00",
  "%0A",
  "%0D",
  "%0D%0A",
  "%09",
  "%1B",
  "%7F",
  "%C2%85",
  "%C2%9B",
  "%E2%80%A8",
  "%E2%80%A9",
  "\u2028",
  "\u2029",
  "%C0%AE",
  "%C0%AF",
  "%C0%AE%C0%AE",
  "%E0%80%AE",
  "%F0%80%80%AE",
  "%C1%9C",
  "%FF",
  "%FE%FF",
  "%ED%A0%80",
  "%ZZ",
  "%",
  "%2",
  "%25",
  "+",
  " ",
  "%20",
  "%3F",
  "%23",
  ";",
  "~",
  "é",
  "%C3%A9",
  "日本",
  "😀",
  "\ud800",
  "docs",
  "readme.md",
  "a.txt",
  "a",
  "ab",
  "x.txt",
  "evil-link",
  "escape.txt",
  "dangling",
  ".env",
  "rule-hidden.txt",
  "good-link.md",
  "secret.txt",
  "back%5Cslash.txt",
  "etc",
  "passwd",
  "home",
  "con",
  "nul",
];

function pick<T>(rnd: () => number, list: readonly T[]): T {
  return list[Math.floor(rnd() * list.length)];
}

/** One random path suffix as a client could put it in a URL. */
function randomPath(rnd: () => number): string {
  const r = rnd();
  if (r < 0.02) {
    // Far past PATH_MAX.
    return Array.from(
      { length: 18 + Math.floor(rnd() * 12) },
      () => "d".repeat(150 + Math.floor(rnd() * 100)),
    )
      .join("/");
  }
  const segments: string[] = [];
  const n = 1 + Math.floor(rnd() * 7);
  for (let i = 0; i < n; i++) {
    const k = rnd();
    if (k < 0.08) {
      segments.push(pick(rnd, ["x", "é", "%C3%A9", "a%00"]).repeat(100 + Math.floor(rnd() * 200)));
    } else if (k < 0.16) segments.push(String.fromCharCode(Math.floor(rnd() * 0xa0)) + pick(rnd, PIECES));
    else if (k < 0.35) segments.push(pick(rnd, PIECES) + pick(rnd, PIECES));
    else segments.push(pick(rnd, PIECES));
  }
  let path = segments.join(rnd() < 0.8 ? "/" : pick(rnd, ["//", "%2F", "\\", "/./"]));
  if (rnd() < 0.15) path += "/";
  if (rnd() < 0.05) path = "/" + path;
  return path;
}

interface Call {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

const PUBLIC_HASHES = ["pubdocs1", "pubfile1"];

function randomCall(rnd: () => number): Call {
  const p = randomPath(rnd);
  const q = randomPath(rnd);
  // A URL carries bytes: lone surrogates cannot be sent encoded (the URL parser turns raw ones into U+FFFD).
  const dest = rnd() < 0.7 ? encodeURIComponent(encodeURIComponent(("/" + q).toWellFormed())) : q;
  const tus = { "Upload-Length": String(Math.floor(rnd() * 3)) };
  const calls: (() => Call)[] = [
    () => ({ method: "GET", url: `/api/resources/${p}` }),
    () => ({ method: "POST", url: `/api/resources/${p}`, body: "x" }),
    () => ({ method: "PUT", url: `/api/resources/${p}`, body: "y" }),
    () => ({
      method: "PATCH",
      url: `/api/resources/${p}?action=${pick(rnd, ["copy", "rename", "x"])}&destination=${dest}` +
        pick(rnd, ["", "&override=true", "&rename=true"]),
    }),
    () => ({ method: "DELETE", url: `/api/resources/${p}` }),
    () => ({ method: "GET", url: `/api/resources/recursive/${p}` }),
    () => ({ method: "GET", url: `/api/raw/${p}` + pick(rnd, ["", "?inline=true", `?files=${dest}`]) }),
    () => ({ method: "GET", url: `/api/preview/${pick(rnd, ["thumb", "big", "%0A", "x"])}/${p}` }),
    () => ({ method: "GET", url: `/api/search/${p}?query=${pick(rnd, ["a", "%00", "type:image x", q])}` }),
    () => ({ method: "GET", url: `/api/usage/${p}` }),
    () => ({ method: "GET", url: `/api/subtitle/${p}` }),
    () => ({ method: "POST", url: `/api/tus/${p}`, headers: tus }),
    () => ({ method: "HEAD", url: `/api/tus/${p}` }),
    () => ({
      method: "PATCH",
      url: `/api/tus/${p}`,
      headers: { "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" },
      body: "z",
    }),
    () => ({ method: "DELETE", url: `/api/tus/${p}` }),
    () => ({ method: "GET", url: `/api/share/${p}` }),
    () => ({ method: "POST", url: `/api/share/${p}`, body: "{}" }),
    () => ({ method: "DELETE", url: `/api/share/${p}` }),
    () => ({ method: "GET", url: `/api/public/share/${pick(rnd, PUBLIC_HASHES)}/${p}` }),
    () => ({ method: "GET", url: `/api/public/dl/${pick(rnd, PUBLIC_HASHES)}/${p}` }),
    () => ({ method: "GET", url: `/api/public/share/${p}` }),
    () => ({ method: "GET", url: `/api/public/dl/${p}` }),
  ];
  return pick(rnd, calls)();
}

/** Every entry below `dir` (names, kinds, link targets and contents), skipping `skip`. */
async function snapshot(dir: string, skip: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(d: string): Promise<void> {
    for await (const e of Deno.readDir(d)) {
      const path = `${d}/${e.name}`;
      if (path === skip) continue;
      if (e.isSymlink) out.push(`${path} -> ${await Deno.readLink(path)}`);
      else if (e.isDirectory) {
        out.push(`${path}/`);
        await walk(path);
      } else out.push(`${path} = ${await Deno.readTextFile(path)}`);
    }
  }
  await walk(dir);
  return out.sort();
}

/** Runs `count` random requests in order against a fresh fixture; returns the status counts. */
async function runPartition(
  part: number,
  count: number,
  log: ReturnType<typeof captureLog>,
): Promise<Map<number, number>> {
  const f = await filesFixture();
  try {
    for (const [hash, path] of [["pubdocs1", "/docs"], ["pubfile1", "/a.txt"]]) {
      const share = { hash, path, userID: f.users.u.id, expire: 0, passwordHash: "", token: "" };
      await shares.createShare(f.deps.kv, share);
    }
    const before = [...await snapshot(f.root, f.home), ...await snapshot(f.outside, "")];
    const rnd = prng(SEED + part);
    const statuses = new Map<number, number>();
    for (let i = 0; i < count; i++) {
      const call = randomCall(rnd);
      const where = `seed=${SEED} partition=${part} i=${i}: ${call.method} ${call.url.slice(0, 300)}`;
      const init = { method: call.method, headers: call.headers, body: call.body, as: "u" };
      const res = await f.request(call.url, init);
      const body = call.method === "HEAD" ? "" : await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      // 501 is the API's answer for a preview of a non-image; any other 5xx is a bug.
      const deliberate = res.status === 501 && call.url.startsWith("/api/preview/");
      assert.ok(res.status < 500 || deliberate, `${where} -> ${res.status} ${log.errors().join("\n")}`);
      assert.ok(!body.includes(SECRET), `${where} leaked the secret`);
      // An ERROR line names its own request; `where` is only the latest one of this partition.
      assert.deepEqual(log.errors(), [], where);
    }
    const after = [...await snapshot(f.root, f.home), ...await snapshot(f.outside, "")];
    assert.deepEqual(after, before, `partition ${part}: nothing outside the scope changed`);
    return statuses;
  } finally {
    await f.close();
  }
}

Deno.test(`${ITERATIONS} random hostile paths: no 500, no ERROR line, no leak, nothing changes outside the scope`, async () => {
  const log = captureLog();
  try {
    const t0 = performance.now();
    const results = await Promise.allSettled(
      Array.from({ length: PARTITIONS }, (_, part) => {
        const count = Math.floor(ITERATIONS / PARTITIONS) + (part < ITERATIONS % PARTITIONS ? 1 : 0);
        return runPartition(part, count, log);
      }),
    );
    const ms = performance.now() - t0;
    for (const r of results) if (r.status === "rejected") throw r.reason;
    const statuses = new Map<number, number>();
    for (const r of results) {
      if (r.status === "fulfilled") {
        for (const [s, n] of r.value) statuses.set(s, (statuses.get(s) ?? 0) + n);
      }
    }
    assert.equal([...statuses.values()].reduce((a, b) => a + b, 0), ITERATIONS);
    // The paths must reach the handlers, not only the router: many succeed, many are refused by the checks.
    const summary = [...statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}:${n}`).join(" ");
    for (const status of [200, 400, 403, 404, 414]) {
      assert.ok(
        (statuses.get(status) ?? 0) > ITERATIONS / 200,
        `${status} is rare: ${summary} (${ms.toFixed(0)} ms)`,
      );
    }
  } finally {
    log.stop();
  }
});
