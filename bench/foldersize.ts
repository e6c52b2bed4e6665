/**
 * Folder size benchmark (a script, not a test):
 *   deno run -A bench/foldersize.ts [--dirs=1000] [--files=100]
 *
 * Builds a tree of dirs × files (default 100,000 files) under bench/_work/foldersize/ once, then times
 * `du -s` and measureFolder() (the walk behind GET /api/foldersize, no cache) on it, warm, median of 5.
 * Goal: at most 2× `du -s`.
 */
import { measureFolder } from "../lib/fs/folder_size.ts";
import { resolveScoped } from "../lib/fs/gate.ts";
import type { StoredUser } from "../lib/types.ts";

const enc = new TextEncoder();
const print = (line: string) => Deno.stdout.writeSync(enc.encode(line + "\n"));
const WORK = new URL("./_work/foldersize", import.meta.url).pathname;
const args = Object.fromEntries(Deno.args.map((a) => a.replace(/^--/, "").split("=")));
const DIRS = Number(args.dirs ?? 1000);
const FILES = Number(args.files ?? 100);

async function build(): Promise<void> {
  try {
    await Deno.stat(`${WORK}/d${DIRS - 1}/f${FILES - 1}`);
    return;
  } catch {
    // Not built yet.
  }
  for (let d = 0; d < DIRS; d++) {
    await Deno.mkdir(`${WORK}/d${d}`, { recursive: true });
    for (let f = 0; f < FILES; f++) Deno.writeFileSync(`${WORK}/d${d}/f${f}`, new Uint8Array(f % 7));
  }
}

function median(xs: number[]): number {
  return xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

await build();
const du: number[] = [];
const ours: number[] = [];
const user = { scope: "/", perm: {}, rules: [], hideDotfiles: false } as unknown as StoredUser;
const dir = await resolveScoped(
  { root: WORK, user, globalRules: [], followExternalSymlinks: false, foldCase: false },
  "/",
  "read",
);
let total = null;
for (let i = 0; i < 6; i++) {
  let t = performance.now();
  const out = await new Deno.Command("du", { args: ["-s", WORK], stdout: "null" }).output();
  if (!out.success) throw new Error("du failed");
  if (i > 0) du.push(performance.now() - t);
  t = performance.now();
  total = await measureFolder(dir);
  if (i > 0) ours.push(performance.now() - t);
}
const a = median(du);
const b = median(ours);
print(
  `folder size of ${total!.files} files in ${total!.folders} folders: du -s ${a.toFixed(0)} ms, ` +
    `measureFolder ${b.toFixed(0)} ms (${(b / a).toFixed(2)}× du, median of 5, warm)`,
);
