/**
 * What a folder's watcher reported, for ListingCache: a sequence number per event and the entry names each
 * changed, so that a snapshot read before can be patched (listing_patch.ts) instead of read again. An event
 * that does not name entries of the folder (no paths, the folder itself, a rescan flag, a name that is not
 * UTF-8), too many names, or the watcher's end make every snapshot read before it unpatchable.
 */

/** More changed names than this since a snapshot: it is read again rather than patched. */
export const MAX_PATCH_NAMES = 2048;

/** Events and changed names of one watched folder. */
export class ChangeLog {
  readonly #real: string;
  readonly #prefix: string;
  /** Events seen so far (each one's sequence number). */
  events = 0;
  /** Changed names and the last event that named each. */
  readonly #dirty = new Map<string, number>();
  /** The last event after which patching is not possible. */
  #unpatchableAt = 0;

  constructor(real: string) {
    this.#real = real;
    this.#prefix = real === "/" ? "/" : real + "/";
  }

  /** Records one watcher event. */
  record(event: Deno.FsEvent): void {
    const seq = ++this.events;
    const names = this.#namesOf(event);
    if (names === null || this.#dirty.size + names.length > MAX_PATCH_NAMES) return this.#unpatchable(seq);
    for (const name of names) this.#dirty.set(name, seq);
  }

  /** The watcher ended (closed or failed): later changes go unseen. */
  end(): void {
    this.#unpatchable(++this.events);
  }

  /**
   * The names changed by events after event `since`; null when one of those events cannot be patched or the
   * names are more than `max`.
   */
  since(since: number, max: number): Set<string> | null {
    if (this.#unpatchableAt > since) return null;
    const out = new Set<string>();
    for (const [name, seq] of this.#dirty) {
      if (seq <= since) continue;
      out.add(name);
      if (out.size > max) return null;
    }
    return out;
  }

  /** Forgets the names of events up to `seq` (the snapshot now kept was read after them). */
  forget(seq: number): void {
    for (const [name, at] of this.#dirty) if (at <= seq) this.#dirty.delete(name);
  }

  #unpatchable(seq: number): void {
    this.#unpatchableAt = seq;
    this.#dirty.clear();
  }

  /** The folder's entries an event names; null when it names something else too (or nothing). */
  #namesOf(event: Deno.FsEvent): string[] | null {
    if (event.flag != null || event.paths.length === 0) return null;
    const names: string[] = [];
    for (const path of event.paths) {
      if (path.length > this.#prefix.length && path.startsWith(this.#prefix)) {
        const name = path.slice(this.#prefix.length);
        // Not an entry of this folder, or a name that was not UTF-8 (replaced characters): not patchable.
        if (name.includes("/") || name.includes("\uFFFD") || name === "." || name === "..") return null;
        names.push(name);
      } else if (path === this.#real || event.paths.length === 1) {
        return null;
      }
      // Else the other end of a move between two watched folders, named with this folder's end.
    }
    return names.length > 0 ? names : null;
  }
}
