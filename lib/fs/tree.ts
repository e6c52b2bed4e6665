/** Subtree walks over real directories (lstat-based, never entering symlinks) for recursive rule checks. */
import { lstat, pinEntryIn, pinRealIn, readDir } from "./floor.ts";
import type { ScopedPath } from "./gate.ts";
import { isVisible, realVpathOf } from "./gate.ts";
import { joinVpath } from "./path.ts";
import { hasRules } from "./rules.ts";

/** One entry below a walked directory: its path relative to the walk root (`a/b.txt`) and its lstat. */
export interface TreeEntry {
  rel: string;
  info: Deno.FileInfo;
}

/** Yields every entry below `dir` (pre-order), without following symlinks. Unreadable folders throw. */
export async function* walkTree(
  from: string | (Pick<ScopedPath, "real" | "path"> & { confinement: { anchor: string } }),
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<TreeEntry> {
  // A string is a server path (the trash store): nothing to pin there.
  const at = typeof from === "string" ? { real: from, path: from, confinement: { anchor: "" } } : from;
  const dir = at.real;
  const stack: string[] = [""];
  while (stack.length) {
    const rel = stack.pop()!;
    const names: string[] = [];
    // Each folder through the disk floor: one swapped for a link since it was listed is refused (throws).
    {
      using folder = pinRealIn(at, rel ? `${dir}/${rel}` : dir);
      for await (const e of readDir(folder)) names.push(e.name);
    }
    names.sort();
    const dirs: string[] = [];
    for (const name of names) {
      options.signal?.throwIfAborted();
      const childRel = rel ? `${rel}/${name}` : name;
      using entry = pinEntryIn(at, `${dir}/${childRel}`);
      const info = await lstat(entry);
      yield { rel: childRel, info };
      if (info.isDirectory) dirs.push(childRel);
    }
    for (const d of dirs.reverse()) stack.push(d);
  }
}

function joinRel(base: string, rel: string): string {
  return rel.split("/").reduce((acc, seg) => joinVpath(acc, seg), base);
}

/**
 * For recursive copy/move/delete: the first descendant of `src` (or its mapped path under `dst`) that the
 * rules deny, or null. Dot-file hiding is ignored here, like upstream; with no rules the walk is skipped.
 */
export async function findDeniedDescendant(
  src: ScopedPath,
  options: { dst?: ScopedPath } = {},
): Promise<string | null> {
  const conf = src.confinement;
  if (!hasRules(conf.rules)) return null;
  const dirInfo = src.stat;
  if (!dirInfo?.isDirectory) return null;
  // When src is reached through a symlink, descendants are judged where they really are as well.
  const realSrc = realVpathOf(src);
  for await (const { rel } of walkTree(src)) {
    if (!isVisible(conf, joinRel(src.vpath, rel), { ignoreHidden: true })) return joinRel(src.vpath, rel);
    if (realSrc !== null && !isVisible(conf, joinRel(realSrc, rel), { ignoreHidden: true })) {
      return joinRel(src.vpath, rel);
    }
    if (options.dst && !isVisible(conf, joinRel(options.dst.vpath, rel), { ignoreHidden: true })) {
      return joinRel(options.dst.vpath, rel);
    }
  }
  return null;
}
