// This module is browser-compatible.
/**
 * The order the files page shows a folder in: the API's order (the user's sorting, wire-compatible with
 * filebrowser), with folders first in every sort, as filebrowser's own page shows them. Folders have no size,
 * so when sorting by size they are in name order (A→Z) rather than by the size of their directory inode.
 */
import type { Resource, Sorting } from "../lib/types.ts";
import { compareNatural } from "../lib/fs/sort.ts";

/** `items` with folders first; each group keeps the API's order (by name for folders when sorting by size). */
export function displayOrder(items: readonly Resource[], sorting?: Sorting): Resource[] {
  const dirs: Resource[] = [];
  const files: Resource[] = [];
  for (const item of items) (item.isDir ? dirs : files).push(item);
  if (sorting?.by === "size" && dirs.length > 1) {
    const lower = new Map(dirs.map((d) => [d, d.name.toLowerCase()]));
    dirs.sort((x, y) => compareNatural(lower.get(x)!, lower.get(y)!));
  }
  return dirs.length && files.length ? dirs.concat(files) : dirs.length ? dirs : files;
}

/** The folder `r` with its items in display order (a file is returned as is). */
export function inDisplayOrder(r: Resource): Resource {
  return r.isDir && r.items ? { ...r, items: displayOrder(r.items, r.sorting) } : r;
}
