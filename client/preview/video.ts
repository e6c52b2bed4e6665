// This module is browser-compatible.
/** Video playback: the offered rates, and the position and rate remembered per source in localStorage. */

/** Playback rates offered (as in filebrowser). */
export const PLAYBACK_RATES = [0.75, 1, 1.25, 1.5, 2] as const;

const KEY_PREFIX = "fb:video-time:";
const RATE_PREFIX = "fb:video-rate:";
/** Positions closer than this to the start or the end are not worth restoring. */
const EDGE_SECONDS = 2;
/** At most this many positions are kept; the oldest are dropped. */
const MAX_ENTRIES = 200;

/** The storage used (localStorage in the browser; tests pass their own). */
export type KeyValueStorage = Pick<Storage, "getItem" | "setItem" | "removeItem" | "key" | "length">;

function defaultStorage(): KeyValueStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Storage can be disabled (privacy mode): positions are simply not remembered.
    return null;
  }
}

/** The remembered position (seconds) of a source, or 0. */
export function loadPosition(source: string, storage = defaultStorage()): number {
  const raw = storage?.getItem(KEY_PREFIX + source);
  const seconds = raw ? Number(JSON.parse(raw)?.t) : 0;
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}

/** Remembers a position; near the start or the end (`duration`) the entry is removed instead. */
export function savePosition(
  source: string,
  seconds: number,
  options: { duration?: number; storage?: KeyValueStorage | null } = {},
): void {
  const storage = options.storage === undefined ? defaultStorage() : options.storage;
  if (!storage) return;
  const key = KEY_PREFIX + source;
  const duration = options.duration ?? Infinity;
  if (!(seconds > EDGE_SECONDS) || (Number.isFinite(duration) && duration - seconds < EDGE_SECONDS)) {
    storage.removeItem(key);
    return;
  }
  try {
    storage.setItem(key, JSON.stringify({ t: Math.round(seconds * 10) / 10, at: Date.now() }));
  } catch {
    // Quota exceeded: make room and try once more.
    prunePositions(storage, MAX_ENTRIES / 2);
    storage.setItem(key, JSON.stringify({ t: seconds, at: Date.now() }));
  }
  prunePositions(storage, MAX_ENTRIES);
}

/** Drops the oldest remembered positions beyond `keep`. */
export function prunePositions(storage: KeyValueStorage, keep: number): void {
  const entries: { key: string; at: number }[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (!key?.startsWith(KEY_PREFIX)) continue;
    let at = 0;
    try {
      at = Number(JSON.parse(storage.getItem(key) ?? "{}")?.at) || 0;
    } catch {
      // A foreign or corrupt value sorts as oldest and goes first.
    }
    entries.push({ key, at });
  }
  if (entries.length <= keep) return;
  entries.sort((a, b) => a.at - b.at);
  for (const e of entries.slice(0, entries.length - keep)) storage.removeItem(e.key);
}

/** The remembered playback rate of a source, or 1 (only rates from PLAYBACK_RATES are accepted). */
export function loadRate(source: string, storage = defaultStorage()): number {
  const rate = Number(storage?.getItem(RATE_PREFIX + source));
  return (PLAYBACK_RATES as readonly number[]).includes(rate) ? rate : 1;
}

/** Remembers the playback rate of a source; the normal rate (1) removes the entry. */
export function saveRate(source: string, rate: number, storage = defaultStorage()): void {
  if (!storage) return;
  const key = RATE_PREFIX + source;
  if (rate === 1 || !(PLAYBACK_RATES as readonly number[]).includes(rate)) {
    storage.removeItem(key);
    return;
  }
  try {
    storage.setItem(key, String(rate));
  } catch {
    // Quota exceeded: make room among the oldest positions and try once more.
    prunePositions(storage, MAX_ENTRIES / 2);
    storage.setItem(key, String(rate));
  }
}
