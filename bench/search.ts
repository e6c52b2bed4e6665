/**
 * Search benchmark (a script, not a test):
 *   deno run -A bench/search.ts [--entries=1000000] [--runs=20] [--no-watch] [--no-peers]
 *
 * Generates a tree of about N entries under bench/_work/search-N (kept between runs; one python3 process
 * writes every empty file), builds the filename index (lib/search/index/) and prints its build time, size and
 * the process RSS, then p50/p99 of substring, `type:` and case-sensitive searches through `searchStream`
 * (the NDJSON body /api/search sends) against `fdfind` and `find` on the same tree, output read in full.
 * A peer that is not installed is skipped. Goal: p50 <= 50 ms on 1M entries. Also prints the time to the
 * first NDJSON chunk of each of our queries, the snapshot's size and write time, and start-to-ready with the
 * snapshot (plus its background reconciliation) against the fresh walk.
 */
import { parseArgs } from "node:util";
import { ctxFor } from "../lib/fs/_testing.ts";
import { SearchIndex } from "../lib/search/index/mod.ts";
import { searchStream } from "../lib/search/mod.ts";
import { setLogLevel } from "../lib/log.ts";

/** Writes one line to stdout (the lint rule forbids console in this project). */
function print(line: string): void {
  Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
}

const WORK = new URL("./_work/", import.meta.url).pathname;

const { values } = parseArgs({
  args: Deno.args,
  options: {
    entries: { type: "string", default: "1000000" },
    runs: { type: "string", default: "20" },
    "no-watch": { type: "boolean", default: false },
    "no-peers": { type: "boolean", default: false },
  },
});
const entries = Number(values.entries);
const runs = Number(values.runs);

// 10 words x 10 extensions; one file in 100 is "Report-..." (upper case), one in 10 "report-...".
const GENERATOR = `
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
words = ["report", "photo", "notes", "data", "IMG", "song", "video", "draft", "invoice", "Report"]
exts = ["jpg", "png", "txt", "md", "pdf", "mp3", "mp4", "go", "ts", "JPG"]
per_dir = 100
dirs = max(1, n // (per_dir + 1))
made = 0
for d in range(dirs):
    path = os.path.join(root, "top%02d" % (d % 50), "mid%03d" % (d // 50 % 200), "leaf%05d" % d)
    os.makedirs(path, exist_ok=True)
    for i in range(per_dir):
        w = words[(i * 7 + d) % 10]
        open(os.path.join(path, "%s-%d-%d.%s" % (w, d, i, exts[(i + d) % 10])), "w").close()
`;

async function ensureTree(n: number): Promise<string> {
  const dir = `${WORK}search-${n}`;
  try {
    await Deno.stat(`${dir}.complete`);
    return dir;
  } catch {
    // Generate it below.
  }
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  const t0 = performance.now();
  const out = await new Deno.Command("python3", { args: ["-c", GENERATOR, dir, String(n)] }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  await Deno.writeTextFile(`${dir}.complete`, "");
  print(`generated ${n} entries in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return dir;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

/** A run returns its hit count, and (ours) when the first chunk arrived, in ms after its start. */
async function measure(name: string, run: () => Promise<number | [number, number]>): Promise<void> {
  await run(); // warm-up
  const times: number[] = [], firsts: number[] = [];
  let lines = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = await run();
    times.push(performance.now() - t0);
    if (Array.isArray(r)) firsts.push(r[1]);
    lines = Array.isArray(r) ? r[0] : r;
  }
  const p50 = percentile(times, 0.5).toFixed(1), p99 = percentile(times, 0.99).toFixed(1);
  const first = firsts.length ? `  first hit p50 ${percentile(firsts, 0.5).toFixed(1)} ms` : "";
  print(`${name.padEnd(44)} p50 ${p50.padStart(8)} ms  p99 ${p99.padStart(8)} ms  ${lines} hits${first}`);
}

async function installed(bin: string): Promise<boolean> {
  try {
    return (await new Deno.Command(bin, { args: ["--version"], stdout: "null", stderr: "null" }).output())
      .success;
  } catch {
    return false;
  }
}

function countLines(bytes: Uint8Array): number {
  let n = 0;
  for (const b of bytes) if (b === 10) n++;
  return n;
}

function command(bin: string, args: string[]): () => Promise<number> {
  return async () => countLines((await new Deno.Command(bin, { args, stderr: "null" }).output()).stdout);
}

setLogLevel("warn");
const root = await ensureTree(entries);
const rss0 = Deno.memoryUsage().rss;
const snapshot = `${root}.snapshot`;
await Deno.remove(snapshot).catch(() => {});
const options = { watch: !values["no-watch"], reconcileMs: 0, snapshot, snapshotMs: 0 };
const index = new SearchIndex(root, options);
const t0 = performance.now();
await index.start();
const stats = index.stats();
const rss1 = Deno.memoryUsage().rss;
const mib = (n: number) => (n / 2 ** 20).toFixed(1);
print(
  `index: ${stats.entries} entries, built in ${((performance.now() - t0) / 1000).toFixed(2)} s ` +
    `(watch ${values["no-watch"] ? "off" : "on"}), ${mib(stats.bytes)} MiB by count, ` +
    `RSS ${mib(rss0)} -> ${mib(rss1)} MiB`,
);
const t1 = performance.now();
await index.refresh();
print(`reconciliation of an unchanged tree: ${(performance.now() - t1).toFixed(0)} ms`);
// The snapshot written right after the walk (queued; refresh() waited for it).
const saved = index.stats();
if (saved.snapshotBytes) {
  print(`snapshot: ${mib(saved.snapshotBytes)} MiB written in ${saved.snapshotMs.toFixed(0)} ms`);
}

const ctx = ctxFor(root);
const ours = (q: string) => async (): Promise<[number, number]> => {
  const t = performance.now();
  let first = 0, lines = 0;
  for await (const chunk of await searchStream(ctx, "/", q, { index })) {
    if (!first) first = performance.now() - t;
    for (const b of chunk) if (b === 10) lines++;
  }
  return [lines, first];
};
const cases: { label: string; query: string; fd: string[]; find: string[] }[] = [
  { label: "substring 'report'", query: "report", fd: ["-u", "-i", "report"], find: ["-iname", "*report*"] },
  { label: "10% substring 'photo'", query: "photo", fd: ["-u", "-i", "photo"], find: ["-iname", "*photo*"] },
  {
    label: "rare substring 'ice-77'",
    query: "ice-77",
    fd: ["-u", "-F", "ice-77"],
    find: ["-iname", "*ice-77*"],
  },
  {
    label: "type:image",
    query: "type:image",
    fd: ["-u", "-e", "jpg", "-e", "png", "."],
    find: ["(", "-iname", "*.jpg", "-o", "-iname", "*.png", ")"],
  },
  {
    label: "case:sensitive Report",
    query: "case:sensitive Report",
    fd: ["-u", "-s", "Report"],
    find: ["-name", "*Report*"],
  },
];
const hasFd = !values["no-peers"] && await installed("fdfind");
const hasFind = !values["no-peers"] && await installed("find");
for (const c of cases) {
  await measure(`index  ${c.label}`, ours(c.query));
  if (hasFd) await measure(`fdfind ${c.label}`, command("fdfind", [...c.fd, root]));
  if (hasFind) await measure(`find   ${c.label}`, command("find", [root, ...c.find]));
}
print(`RSS after queries: ${mib(Deno.memoryUsage().rss)} MiB`);
await index.close();

if (saved.snapshotBytes) {
  // A restart: load the snapshot (queries are answered from here on), then reconcile it in the background.
  const warm = new SearchIndex(root, options);
  const t2 = performance.now();
  await warm.start();
  const ready = performance.now() - t2;
  await warm.settle();
  print(
    `start to ready: fresh walk ${(stats.buildMs / 1000).toFixed(2)} s, from the snapshot ` +
      `${(ready / 1000).toFixed(2)} s (reconciled after ${((performance.now() - t2) / 1000).toFixed(2)} s)`,
  );
  await warm.close();
}
