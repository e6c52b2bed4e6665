/**
 * Encoding helpers of directory snapshots (listing_snapshot.ts): an entry's JSON fragment, a batching UTF-8
 * sink for the fragments, and type detection memoised per extension.
 */
import { type DirStat, S_IFIFO, S_IFREG } from "./dir_stat.ts";
import { detectType, formatModifiedMs, TEXT_SIZE_LIMIT } from "./file_info.ts";
import { hasKnownExtension } from "./mime.ts";
import { extensionOf } from "./path.ts";

const encoder = new TextEncoder();

/** An item's JSON after the directory part of its path (the snapshot's fragment). */
export function fragmentOf(name: string, size: number, mtimeMs: number, mode: number, type: string): string {
  const quoted = JSON.stringify(name);
  return `${quoted.slice(1)},"name":${quoted},"size":${size},"extension":${
    JSON.stringify(extensionOf(name))
  }` +
    `,"modified":"${formatModifiedMs(mtimeMs)}","mode":${mode},"isDir":${type === ""},"isSymlink":false` +
    `,"type":"${type}"}`;
}

/** True when `s` has no character above U+007F. */
export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * Appends strings as UTF-8 to one growing buffer, encoding them in batches (one join + encode per
 * {@link ByteSink.flush}: much cheaper than encoding each small string). `length` counts pending ones too.
 */
export class ByteSink {
  buf: Uint8Array;
  length = 0;
  #written = 0;
  #pending: string[] = [];

  constructor(capacity: number) {
    this.buf = new Uint8Array(Math.max(capacity, 64));
  }

  /** Queues `s`; `ascii` says that it has no characters above U+007F. */
  append(s: string, options: { ascii: boolean }): void {
    this.#pending.push(s);
    this.length += options.ascii ? s.length : encoder.encode(s).length;
  }

  /** Encodes the queued strings into the buffer. */
  flush(): void {
    if (this.#pending.length === 0) return;
    const text = this.#pending.join("");
    this.#pending = [];
    if (this.length > this.buf.length) {
      const bigger = new Uint8Array(Math.max(this.length, this.buf.length * 2));
      bigger.set(this.buf.subarray(0, this.#written));
      this.buf = bigger;
    }
    this.#written += encoder.encodeInto(text, this.buf.subarray(this.#written)).written;
    // Names come from the OS as valid Unicode, so the counted lengths are exact.
    if (this.#written !== this.length) throw new Error("listing fragment lengths out of step");
  }
}

/**
 * `detectType()` of listing entries, memoised per extension where the content is not looked at (the
 * answer then depends only on the extension, the size limit and FIFO-ness).
 */
export class TypeMemo {
  #byKey = new Map<string, string>();

  /** The listing type of one entry. */
  of(name: string, entry: { size: number; type: number; readHeaders: boolean; stat: DirStat }): string {
    const { size, type } = entry;
    const ext = extensionOf(name);
    const known = this.#byKey.get("k" + ext) ?? String(hasKnownExtension(name));
    this.#byKey.set("k" + ext, known);
    if (entry.readHeaders && type === S_IFREG && size > 0 && known === "false") {
      const head = entry.stat.readHead(name);
      return detectType(name, { size, isFifo: false, head, canModify: true });
    }
    const isFifo = type === S_IFIFO;
    const key = (isFifo ? "f" : size <= TEXT_SIZE_LIMIT ? "s" : "l") + ext;
    let result = this.#byKey.get(key);
    if (result === undefined) {
      result = detectType(name, { size, isFifo, canModify: true });
      this.#byKey.set(key, result);
    }
    return result;
  }
}
