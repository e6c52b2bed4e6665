// This module is browser-compatible.
/** The upload chunk size as text: "10MB" ↔ 10485760 bytes, binary multiples, 1 MiB fallback. */

/** What unparseable chunk-size text stands for. */
export const CHUNK_SIZE_FALLBACK = 1024 * 1024;

/** Typing pauses this long before the chunk-size text is applied. */
export const CHUNK_SIZE_DEBOUNCE_MS = 1500;

const POWERS: Record<string, number> = { "": 0, b: 0, k: 1, kb: 1, m: 2, mb: 2, g: 3, gb: 3, t: 4, tb: 4 };
const UNITS = ["B", "KB", "MB", "GB", "TB"];

/** Parses "1.5 mb", "10MB", "512", "2G" into bytes (rounded); anything else gives CHUNK_SIZE_FALLBACK. */
export function parseChunkSize(text: string): number {
  const m = text.trim().match(/^(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)$/i);
  if (!m) return CHUNK_SIZE_FALLBACK;
  const power = POWERS[m[2].toLowerCase()];
  if (power === undefined) return CHUNK_SIZE_FALLBACK;
  const bytes = Math.round(Number(m[1]) * 1024 ** power);
  return Number.isFinite(bytes) && bytes > 0 ? bytes : CHUNK_SIZE_FALLBACK;
}

/** Formats bytes in the largest unit that fits, with at most 2 decimals: 10485760 → "10MB", 1536 → "1.5KB". */
export function formatChunkSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Math.round(value * 100) / 100}${UNITS[unit]}`;
}
