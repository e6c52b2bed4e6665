/**
 * Archive download benchmark through HTTP (a script, not a test):
 *   deno run -A bench/archive_http.ts [--files=10000] [--runs=3] [--v8-flags=--expose-gc] [--algo=zip]
 *     [--app-dir=/path/to/other/checkout] [--no-control]
 *
 * Serves bench/_work/files-<N> (N files of 32 KiB, built by bench/archive.ts; run it once first) with our
 * server (main.ts in a subprocess, with the --v8-flags of deno.json's start task unless `--v8-flags` is given) and
 * downloads `GET /api/raw/?algo=<algo>` (zip, tar, targz, ...: what the API offers) with curl into /dev/null.
 * `--app-dir` runs the server of another checkout (for before/after figures on the same data and machine).
 * Per run: MiB/s (input bytes per wall second), and the server's RSS before and its peak during the runs (VmHWM
 * from /proc). Unless `--no-control`, `zip -r -0 -q - .` into /dev/null is timed once before the runs, as the
 * disk-speed reference of this machine at this moment; the load average is printed at the end (other processes
 * skew every figure). Goal: >= 200 MiB/s; the peak RSS of the archiver alone is what bench/archive.ts measures.
 */
import { parseArgs } from "node:util";
import { startApp } from "./_nginx.ts";

function print(line: string): void {
  Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
}

const MIB = 1024 * 1024;
const { values } = parseArgs({
  args: Deno.args,
  options: {
    files: { type: "string", default: "10000" },
    runs: { type: "string", default: "3" },
    "v8-flags": { type: "string" },
    algo: { type: "string", default: "zip" },
    "app-dir": { type: "string" },
    "no-control": { type: "boolean", default: false },
  },
});
const files = Number(values.files);
const startTask: string = JSON.parse(
  Deno.readTextFileSync(new URL("../deno.json", import.meta.url)),
).tasks.start;
const v8Flags = values["v8-flags"] ?? startTask.match(/--v8-flags=(\S+)/)?.[1] ?? "";
const root = new URL(`./_work/files-${files}/`, import.meta.url).pathname;
if (!await Deno.stat(`${root.replace(/\/$/, "")}.complete`).then(() => true, () => false)) {
  throw new Error(`missing ${root}: run "deno run -A bench/archive.ts --formats=zip --sets=${files}" first`);
}

function status(pid: number, field: string): number {
  const text = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(text.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0) / 1024;
}

const input = files * 32 * 1024;
if (!values["no-control"]) {
  const started = performance.now();
  const zip = await new Deno.Command("sh", { args: ["-c", "zip -r -0 -q - . > /dev/null"], cwd: root })
    .output();
  if (!zip.success) throw new Error("zip -r -0 failed");
  print(`  zip -r -0: ${(input / MIB / ((performance.now() - started) / 1000)).toFixed(0)} MiB/s`);
}
const server = await startApp(root, { v8Flags, cwd: values["app-dir"] });
try {
  const rssBefore = status(server.pid, "VmRSS");
  const rates: number[] = [];
  for (let i = 0; i < Number(values.runs); i++) {
    const started = performance.now();
    const out = await new Deno.Command("curl", {
      args: [
        "-sS",
        "-o",
        "/dev/null",
        "-w",
        "%{http_code} %{size_download}",
        "-H",
        `X-Auth: ${server.headers["X-Auth"]}`,
        `${server.url}/api/raw/?algo=${values.algo}`,
      ],
      stdout: "piped",
    }).output();
    const seconds = (performance.now() - started) / 1000;
    const [code, size] = new TextDecoder().decode(out.stdout).split(" ");
    if (code !== "200") throw new Error(`download failed: ${code}`);
    rates.push(input / MIB / seconds);
    print(
      `  run ${i + 1}: ${(input / MIB / seconds).toFixed(0)} MiB/s, ${
        (Number(size) / MIB).toFixed(1)
      } MiB out`,
    );
  }
  rates.sort((a, b) => a - b);
  const peak = status(server.pid, "VmHWM");
  print(
    `${values.algo} of ${files} x 32 KiB over HTTP from ${values["app-dir"] ?? "this checkout"} (v8 flags: ${
      v8Flags || "none"
    }): median ${rates[Math.floor(rates.length / 2)].toFixed(0)} MiB/s (goal >= 200), server RSS before ${
      rssBefore.toFixed(0)
    } MiB, peak ${peak.toFixed(0)} MiB (+${(peak - rssBefore).toFixed(0)} MiB); load average ${
      Deno.loadavg().map((x) => x.toFixed(2)).join(" ")
    }`,
  );
} finally {
  await server.stop();
}
