// This module is browser-compatible.
/** Previous/next navigation among the media files of a folder, and where to go after the open file is deleted. */
import type { Resource, ResourceType } from "../../lib/types.ts";

/** File types the preview steps through with the arrows. */
export const MEDIA_TYPES: readonly ResourceType[] = ["image", "video", "audio", "blob"];

/** True when the preview's previous/next buttons include this item. */
export function isMedia(item: Pick<Resource, "isDir" | "type">): boolean {
  return !item.isDir && MEDIA_TYPES.includes(item.type);
}

/** The neighbours of an open file. */
export interface Neighbours {
  previous: Resource | null;
  next: Resource | null;
}

function sameName(item: Resource, path: string): boolean {
  return item.path === path || item.path.replace(/\/+$/, "") === path.replace(/\/+$/, "");
}

/** The nearest media items before and after `path` in a listing (in display order); nulls at the ends. */
export function findNeighbours(items: readonly Resource[], path: string): Neighbours {
  const index = items.findIndex((i) => sameName(i, path));
  if (index < 0) return { previous: null, next: null };
  let previous: Resource | null = null;
  for (let j = index - 1; j >= 0; j--) {
    if (isMedia(items[j])) {
      previous = items[j];
      break;
    }
  }
  let next: Resource | null = null;
  for (let j = index + 1; j < items.length; j++) {
    if (isMedia(items[j])) {
      next = items[j];
      break;
    }
  }
  return { previous, next };
}

/** After deleting the open file: the next media file, else the previous one, else null (close to the folder). */
export function afterDelete(neighbours: Neighbours): Resource | null {
  return neighbours.next ?? neighbours.previous;
}
