// This module is browser-compatible.
/**
 * Command history of the shell prompt: the last commands (newest last, no immediate repeats), browsed with Up/Down
 * like a shell does, and kept in a Web Storage (localStorage in the browser) under a per-user key.
 */

/** How many commands are kept. */
export const HISTORY_MAX = 100;

/** The part of Web Storage the history uses. */
export type HistoryStorage = Pick<Storage, "getItem" | "setItem">;

function readList(storage: HistoryStorage | null, key: string): string[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(key) ?? "[]");
    return Array.isArray(parsed)
      ? parsed.filter((s): s is string => typeof s === "string").slice(-HISTORY_MAX)
      : [];
  } catch {
    // Corrupt or unreadable storage: start empty.
    return [];
  }
}

/** The history of one user, with a browsing cursor. */
export class CommandHistory {
  #entries: string[];
  /** Index into #entries while browsing; #entries.length means "the line being typed". */
  #cursor: number;
  /** What was typed before browsing started (restored when Down goes past the newest entry). */
  #draft = "";

  constructor(private storage: HistoryStorage | null, private key: string) {
    this.#entries = readList(storage, key);
    this.#cursor = this.#entries.length;
  }

  /** The stored commands, oldest first. */
  get entries(): readonly string[] {
    return this.#entries;
  }

  /** Ends browsing: the next Up starts again from the newest command. */
  rewind(): void {
    this.#cursor = this.#entries.length;
    this.#draft = "";
  }

  /** Records a run command and ends browsing. */
  push(line: string): void {
    const cmd = line.trim();
    this.rewind();
    if (!cmd || this.#entries[this.#entries.length - 1] === cmd) return;
    this.#entries = [...this.#entries, cmd].slice(-HISTORY_MAX);
    this.#cursor = this.#entries.length;
    try {
      this.storage?.setItem(this.key, JSON.stringify(this.#entries));
    } catch {
      // Storage full or disabled: the history still works for this page.
    }
  }

  /** Up: the previous command (the current line is kept as the draft); null when there is none. */
  previous(current: string): string | null {
    if (this.#cursor === 0) return null;
    if (this.#cursor === this.#entries.length) this.#draft = current;
    return this.#entries[--this.#cursor];
  }

  /** Down: the next command, or the draft after the newest; null when not browsing. */
  next(): string | null {
    if (this.#cursor >= this.#entries.length) return null;
    this.#cursor++;
    return this.#cursor === this.#entries.length ? this.#draft : this.#entries[this.#cursor];
  }
}
