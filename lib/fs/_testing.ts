/** Test helpers for lib/fs: a temp server root and gate contexts on it. */
import type { Permissions, Rule, Sorting } from "../types.ts";
import type { GateContext } from "./gate.ts";

/** Every permission on. */
export const ALL: Permissions = {
  admin: true,
  execute: true,
  create: true,
  rename: true,
  modify: true,
  delete: true,
  share: true,
  download: true,
};

/** A gate context on `root` (scope `/` unless given). */
export function ctxFor(root: string, options: Partial<GateContext> & {
  scope?: string;
  perm?: Partial<Permissions>;
  rules?: Rule[];
  hideDotfiles?: boolean;
} = {}): GateContext {
  return {
    root,
    user: {
      scope: options.scope ?? "/",
      perm: { ...ALL, ...options.perm },
      rules: options.rules ?? [],
      hideDotfiles: options.hideDotfiles ?? false,
    },
    globalRules: options.globalRules ?? [],
    followExternalSymlinks: options.followExternalSymlinks ?? false,
    base: options.base,
    foldCase: options.foldCase ?? false,
  };
}

/** A deny (or allow) path rule. */
export function pathRule(path: string, allow = false): Rule {
  return { regex: false, allow, path, regexp: null };
}

/** A regex rule. */
export function regexRule(raw: string, allow = false): Rule {
  return { regex: true, allow, path: "", regexp: { raw } };
}

/** Creates files (`name/` = folder) with text content under `dir`. */
export async function makeTree(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    if (name.endsWith("/")) {
      await Deno.mkdir(`${dir}/${name}`, { recursive: true });
      continue;
    }
    const parent = `${dir}/${name}`.replace(/\/[^/]*$/, "");
    await Deno.mkdir(parent, { recursive: true });
    await Deno.writeTextFile(`${dir}/${name}`, content);
  }
}

/** Runs `fn` with a fresh temp dir holding `base/` (the server root) and `outside/`, removed afterwards. */
export async function withTempRoot(
  fn: (t: { dir: string; root: string; outside: string }) => Promise<void>,
): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "fbfs-" }));
  const root = `${dir}/base`;
  const outside = `${dir}/outside`;
  await Deno.mkdir(root);
  await Deno.mkdir(outside);
  try {
    await fn({ dir, root, outside });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** True when a path exists (lstat). */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** Every sorting a listing can be asked for: each field both ways, and the default ("") both ways. */
export const ALL_SORTINGS: Sorting[] = [
  { by: "name", asc: false },
  { by: "name", asc: true },
  { by: "size", asc: true },
  { by: "size", asc: false },
  { by: "modified", asc: true },
  { by: "modified", asc: false },
  { by: "", asc: false },
  { by: "", asc: true },
];

/** mulberry32: a small deterministic PRNG, so a randomised test's failure can be replayed from its seed. */
export function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** A folder chain made by {@link makeTooDeepTree}. */
export interface TooDeepTree {
  /** Name of every folder of the chain (200 characters). */
  segment: string;
  /** Folders of the chain whose path fits in MAX_PATH_BYTES (they can be listed; each holds `x.txt`). */
  reachable: number;
  /** Folders of the chain in all (the deeper ones hold `x.txt` too). */
  levels: number;
}

/**
 * Makes a chain of folders below `dir` whose paths pass MAX_PATH_BYTES (4,095), as a command in a user's scope
 * can: the part past the limit is made elsewhere and moved in. Each folder holds a one-byte `x.txt`.
 */
export function makeTooDeepTree(dir: string): TooDeepTree {
  const segment = "d".repeat(200);
  const base = new TextEncoder().encode(dir).length;
  let reachable = 0;
  while (base + (reachable + 1) * 201 <= 4095) reachable++;
  const levels = reachable + 2;
  const chain = (top: string, n: number) => {
    let at = top;
    for (let i = 0; i < n; i++) {
      at += `/${segment}`;
      Deno.mkdirSync(at);
      Deno.writeTextFileSync(`${at}/x.txt`, "x");
    }
    return at;
  };
  const inside = chain(dir, reachable - 1);
  const scratch = Deno.makeTempDirSync({ dir: dir.slice(0, dir.lastIndexOf("/")) || "/" });
  try {
    chain(scratch, levels - reachable + 1);
    // Lands as folder number `reachable`, the last one with a path short enough; what it holds is past it.
    Deno.renameSync(`${scratch}/${segment}`, `${inside}/${segment}`);
  } finally {
    Deno.removeSync(scratch, { recursive: true });
  }
  return { segment, reachable, levels };
}
