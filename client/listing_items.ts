// This module is browser-compatible.
/** The page's side of client/listing_columns.ts: items built back from columns. */
import type { Resource } from "../lib/types.ts";
import type { ListingColumns } from "./listing_columns.ts";

/** Options of appendItems. */
export interface AppendOptions {
  /** Build items up to this index of the columns (exclusive; at most all of them). */
  to: number;
}

/** Appends to `out` the items of `c` from index `out.length` up to `options.to` (or the last). */
export function appendItems(out: Resource[], c: ListingColumns, options: AppendOptions): void {
  const { text, ends, refs, strings, flags } = c;
  // `at`: where the item's path starts in `text` (an item in `odd` has none: its ends repeat the last one).
  const to = Math.min(options.to, c.count);
  for (let i = out.length, at = i && ends[3 * i - 1]; i < to; i++) {
    out.push(
      c.odd[i] ?? {
        path: text.slice(at, at = ends[3 * i]),
        name: text.slice(at, at = ends[3 * i + 1]),
        size: c.size[i],
        extension: strings[refs[2 * i]],
        modified: text.slice(at, at = ends[3 * i + 2]),
        mode: c.mode[i],
        // The bits of ListingColumns.flags: 1 a folder, 2 a symbolic link.
        isDir: (flags[i] & 1) > 0,
        isSymlink: (flags[i] & 2) > 0,
        type: strings[refs[2 * i + 1]] as Resource["type"],
      },
    );
  }
}
