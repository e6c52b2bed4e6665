// This module is browser-compatible.
/**
 * Size, date and type of search results, fetched lazily: the search stream carries only paths, so the overlay asks
 * for the listing of a result's folder when that result scrolls into view. One request per folder (results cluster
 * in few folders), at most {@link DETAIL_FETCHES} at a time, each folder asked for once per overlay.
 */
import type { Resource } from "../lib/types.ts";

/** Folder listings fetched at the same time. */
export const DETAIL_FETCHES = 2;

/** What a result row shows besides its path. */
export interface ResultDetails {
  size: number;
  modified: string;
  type: Resource["type"];
  path: string;
}

/** The folder vpath of a result path ("/a/b.txt" → "/a/", "/a/b/" → "/a/"). */
export function folderOf(path: string): string {
  const p = path.endsWith("/") ? path.slice(0, -1) : path;
  return p.slice(0, p.lastIndexOf("/") + 1) || "/";
}

/** The last segment of a vpath, without a trailing slash. */
export function nameOf(path: string): string {
  const p = path.endsWith("/") ? path.slice(0, -1) : path;
  return p.slice(p.lastIndexOf("/") + 1);
}

/** Caches folder listings by vpath and loads the missing ones through `load`, a few at a time. */
export class ResultDetailsCache {
  #load: (dir: string) => Promise<Resource>;
  #onChange: () => void;
  #byPath = new Map<string, ResultDetails>();
  #asked = new Set<string>();
  #queue: string[] = [];
  #running = 0;

  constructor(load: (dir: string) => Promise<Resource>, onChange: () => void) {
    this.#load = load;
    this.#onChange = onChange;
  }

  /** Details of a result path, or undefined while unknown. */
  get(path: string): ResultDetails | undefined {
    return this.#byPath.get(path.endsWith("/") ? path.slice(0, -1) : path);
  }

  /** Asks for the folder of a result path (once). */
  want(path: string): void {
    const dir = folderOf(path);
    if (this.#asked.has(dir)) return;
    this.#asked.add(dir);
    this.#queue.push(dir);
    this.#pump();
  }

  #pump(): void {
    while (this.#running < DETAIL_FETCHES && this.#queue.length) {
      const dir = this.#queue.shift()!;
      this.#running++;
      this.#load(dir).then((res) => {
        for (const item of res.items ?? []) {
          const key = item.path.endsWith("/") ? item.path.slice(0, -1) : item.path;
          this.#byPath.set(key, {
            size: item.size,
            modified: item.modified,
            type: item.type,
            path: item.path,
          });
        }
        this.#onChange();
      }, () => {
        // A folder that cannot be listed keeps its rows without details.
      }).finally(() => {
        this.#running--;
        this.#pump();
      });
    }
  }
}
