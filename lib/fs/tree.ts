/** Subtree walks over real directories (lstat-based, never entering symlinks) for recursive rule checks. */
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
  dir: string,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<TreeEntry> {
  const stack: string[] = [""];
  while (stack.length) {
    const rel = stack.pop()!;
    const names: string[] = [];
    for await (const e of Deno.readDir(rel ? `${dir}/${rel}` : dir)) names.push(e.name);
    names.sort();
    const dirs: string[] = [];
    for (const name of names) {
      options.signal?.throwIfAborted();
      const childRel = rel ? `${rel}/${name}` : name;
      const info = await Deno.lstat(`${dir}/${childRel}`);
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
  for await (const { rel } of walkTree(src.real)) {
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
