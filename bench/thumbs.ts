/**
 * Benchmark: 256×256 thumbnails of 200 JPEGs of 12 megapixels through lib/thumbs (concurrency 2)
 * versus a bare sharp script doing the same resize with the same concurrency.
 *
 *   deno run -A bench/thumbs.ts [--count 200] [--rounds 2]
 *
 * Inputs are generated once into bench/_work/thumbs_src/ (git-ignored): 20 distinct ImageMagick plasma
 * fractals (sharp noise if `convert` is unavailable), the rest hue-shifted / mirrored variants of them.
 * Every file is read once before timing so both contenders see a warm page cache; rounds alternate.
 */
import sharp from "sharp";
import { resolveScoped } from "../lib/fs/gate.ts";
import { ctxFor } from "../lib/fs/_testing.ts";
import { createPreviewService } from "../lib/thumbs/mod.ts";

const WORK = new URL("./_work/", import.meta.url).pathname;
const SRC = `${WORK}thumbs_src`;
const WIDTH = 4000;
const HEIGHT = 3000;
const BASES = 20;
const CONCURRENCY = 2;

function print(line: string): void {
  Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
}

function argNumber(name: string, fallback: number): number {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Number(Deno.args[i + 1]) : fallback;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  }
}

/** Runs `fn` over `items` with at most `limit` calls in flight. */
async function pool<T>(
  items: T[],
  limit: number,
  fn: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

async function makeBase(path: string, seed: number): Promise<void> {
  const tmp = `${path}.tmp.jpg`;
  const convert = await new Deno.Command("convert", {
    args: ["-seed", String(seed), "-size", `${WIDTH}x${HEIGHT}`, "plasma:fractal", "-quality", "90", tmp],
    stdout: "null",
    stderr: "piped",
  }).output().catch(() => null);
  if (!convert?.success) {
    await sharp({
      create: {
        width: WIDTH,
        height: HEIGHT,
        channels: 3,
        background: { r: 40 + seed * 9, g: 120, b: 200 - seed * 7 },
        noise: { type: "gaussian", mean: 128, sigma: 30 },
      },
    }).blur(1.5).jpeg({ quality: 90 }).toFile(tmp);
  }
  await Deno.rename(tmp, path);
}

async function makeVariant(base: string, path: string, index: number): Promise<void> {
  const tmp = `${path}.tmp.jpg`;
  let pipeline = sharp(base).modulate({ hue: (index * 37) % 360, brightness: 0.9 + (index % 5) * 0.05 });
  if (index % 2) pipeline = pipeline.flop();
  await pipeline.jpeg({ quality: 90 }).toFile(tmp);
  await Deno.rename(tmp, path);
}

async function ensureInputs(count: number): Promise<string[]> {
  await Deno.mkdir(SRC, { recursive: true });
  const files = Array.from({ length: count }, (_, i) => `${SRC}/img_${String(i).padStart(3, "0")}.jpg`);
  const bases = files.slice(0, Math.min(BASES, count));
  const started = performance.now();
  let made = 0;
  await pool(bases, CONCURRENCY, async (f, i) => {
    if (await exists(f)) return;
    await makeBase(f, i + 1);
    made++;
  });
  await pool(files.slice(bases.length), CONCURRENCY, async (f, i) => {
    if (await exists(f)) return;
    await makeVariant(bases[i % bases.length], f, i + bases.length);
    made++;
  });
  if (made) print(`generated ${made} inputs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return files;
}

async function timeIt(fn: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return (performance.now() - t0) / 1000;
}

/** Our service, the way the preview route uses it: through the gate, then getPreview; all requests at once. */
async function runOurs(files: string[], outDir: string): Promise<void> {
  const svc = createPreviewService({ cacheDir: outDir, concurrency: CONCURRENCY });
  const gate = ctxFor(SRC);
  await Promise.all(files.map(async (f) => {
    const source = await resolveScoped(gate, f.slice(SRC.length), "read");
    await svc.getPreview(source, "thumb");
  }));
  if (svc.stats.encoded !== files.length) throw new Error(`encoded ${svc.stats.encoded} of ${files.length}`);
}

async function runBare(files: string[], outDir: string): Promise<void> {
  await Deno.mkdir(outDir, { recursive: true });
  await pool(files, CONCURRENCY, async (f, i) => {
    await sharp(f).rotate().resize(256, 256, { fit: "cover" }).jpeg({ quality: 80 }).toFile(
      `${outDir}/${i}.jpg`,
    );
  });
}

async function main(): Promise<void> {
  const count = argNumber("count", 200);
  const rounds = argNumber("rounds", 2);
  const files = await ensureInputs(count);
  let bytes = 0;
  for (const f of files) bytes += (await Deno.readFile(f)).length; // warm the page cache
  print(`${files.length} inputs, ${WIDTH}×${HEIGHT}, ${(bytes / files.length / 1e6).toFixed(1)} MB average`);
  print(
    `cpus ${navigator.hardwareConcurrency}, concurrency ${CONCURRENCY}, sharp.concurrency ${sharp.concurrency()}`,
  );

  const best = { ours: Infinity, bare: Infinity };
  for (let r = 1; r <= rounds; r++) {
    for (const name of (r % 2 ? ["bare", "ours"] : ["ours", "bare"]) as ("ours" | "bare")[]) {
      const out = await Deno.makeTempDir({ dir: WORK, prefix: `thumbs_out_${name}_` });
      try {
        const secs = await timeIt(() => name === "ours" ? runOurs(files, out) : runBare(files, out));
        best[name] = Math.min(best[name], secs);
        print(
          `round ${r} ${name.padEnd(4)} ${secs.toFixed(2)} s  ${(files.length / secs).toFixed(2)} images/s`,
        );
      } finally {
        await Deno.remove(out, { recursive: true });
      }
    }
  }
  const ours = files.length / best.ours;
  const bare = files.length / best.bare;
  print(`best: ours ${ours.toFixed(2)} images/s, bare sharp ${bare.toFixed(2)} images/s`);
  print(`ratio ours/bare ${(ours / bare).toFixed(3)} (goal ≥ 0.6)`);
}

await main();
