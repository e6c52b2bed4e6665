/**
 * Cost of the disk floor (a script, not a test):
 *   deno run -A bench/floor.ts --before=<checkout of the commit before the floor> [--rounds=3] [--duration=5]
 *     [--size-mib=1024]
 *
 * Alternates the server of `--before` and of this checkout, round after round (before first in odd rounds, after
 * first in even ones, so neither always runs on a warmer machine), through the real server:
 *   - a warm listing of a 10,000-file folder and a 4 KiB raw download, 64 connections (bench/requests.ts, wrk);
 *   - a 1 GiB download with curl (bench/download.ts).
 * Prints each run's lines and, at the end, the medians per side. Goal (issue #24): after within 10% of before.
 * Make the before checkout with `git worktree add /tmp/before <commit>` and `deno install` there.
 */
import { parseArgs } from "node:util";

function print(line: string): void {
  Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
}

const HERE = new URL(".", import.meta.url).pathname;
const { values } = parseArgs({
  args: Deno.args,
  options: {
    before: { type: "string" },
    rounds: { type: "string", default: "3" },
    duration: { type: "string", default: "5" },
    "size-mib": { type: "string", default: "1024" },
  },
});
if (!values.before) {
  print("usage: deno run -A bench/floor.ts --before=<checkout> [--rounds=3]");
  Deno.exit(2);
}

async function run(script: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${HERE}${script}`, ...args],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return new TextDecoder().decode(out.stdout);
}

type Side = "before" | "after";
const figures: Record<Side, Record<string, number[]>> = { before: {}, after: {} };

function record(side: Side, key: string, value: number): void {
  (figures[side][key] ??= []).push(value);
}

async function measure(side: Side): Promise<void> {
  const appDir = side === "before" ? [`--app-dir=${values.before}`] : [];
  const requests = await run("requests.ts", [
    "--targets=raw,big",
    "--servers=ours",
    `--duration=${values.duration}`,
    ...appDir,
  ]);
  for (const line of requests.split("\n")) {
    print(`${side} | ${line}`);
    const m = line.match(
      /^(raw|big)\s*\|\s*ours\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)\s*\|\s*\d+\s*\|\s*([\d.]+)/,
    );
    if (m) {
      record(side, `${m[1]} req/s`, Number(m[2]));
      record(side, `${m[1]} p99 ms`, Number(m[4]));
      record(side, `${m[1]} CPU ms/req`, Number(m[5]));
    }
  }
  const download = await run("download.ts", [`--size-mib=${values["size-mib"]}`, "--runs=3", ...appDir]);
  for (const line of download.split("\n")) {
    print(`${side} | ${line}`);
    const m = line.match(/^ours:\s+median (\d+) MiB\/s/);
    if (m) record(side, "1 GiB download MiB/s", Number(m[1]));
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

print(`load average at start: ${Deno.loadavg().map((x) => x.toFixed(1)).join(" ")}`);
const rounds = Number(values.rounds);
for (let r = 0; r < rounds; r++) {
  const order: Side[] = r % 2 === 0 ? ["before", "after"] : ["after", "before"];
  for (const side of order) await measure(side);
}
print(`load average at end: ${Deno.loadavg().map((x) => x.toFixed(1)).join(" ")}`);
print("figure | before (median, spread) | after (median, spread) | after/before");
for (const key of Object.keys(figures.after)) {
  const b = figures.before[key] ?? [], a = figures.after[key];
  if (b.length === 0) continue;
  const spread = (xs: number[]) => `${Math.min(...xs)}–${Math.max(...xs)}`;
  print(
    `${key} | ${median(b)} (${spread(b)}) | ${median(a)} (${spread(a)}) | ${
      (median(a) / median(b)).toFixed(2)
    }`,
  );
}
