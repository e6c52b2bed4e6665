// This module is browser-compatible.
/** The shell panel's height: bounds for the viewport, the default, and the value remembered in localStorage. */

/** Storage key of the remembered height (pixels). */
export const HEIGHT_KEY = "shell.height";
/** Smallest height: the panel's head, three terminal rows and the prompt line. */
export const MIN_HEIGHT = 150;
/** Room kept above the panel for the top bar and a strip of the page. */
const TOP_ROOM = 96;
/** Step of the divider's arrow keys. */
export const KEY_STEP = 24;

/** The tallest the panel may be in a viewport of this height. */
export function maxHeight(viewport: number): number {
  return Math.max(MIN_HEIGHT, Math.round(viewport) - TOP_ROOM);
}

/** The height limited to what the viewport allows (never below MIN_HEIGHT); not a number gives the default. */
export function clampHeight(height: number, viewport: number): number {
  const max = maxHeight(viewport);
  if (!Number.isFinite(height)) return Math.min(defaultHeight(viewport), max);
  return Math.round(Math.min(max, Math.max(MIN_HEIGHT, height)));
}

/** The height of a panel opened for the first time: about 40% of the viewport, 320 px at most. */
export function defaultHeight(viewport: number): number {
  return Math.max(MIN_HEIGHT, Math.min(320, Math.round(viewport * 0.4)));
}

/** The remembered height (clamped), or the default. */
export function loadHeight(storage: Pick<Storage, "getItem"> | null, viewport: number): number {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(HEIGHT_KEY) ?? null;
  } catch {
    // Storage disabled.
  }
  const n = raw === null || raw.trim() === "" ? NaN : Number(raw);
  return Number.isFinite(n) ? clampHeight(n, viewport) : defaultHeight(viewport);
}

/** Remembers the height (silently skipped when storage is unavailable). */
export function saveHeight(storage: Pick<Storage, "setItem"> | null, height: number): void {
  try {
    storage?.setItem(HEIGHT_KEY, String(Math.round(height)));
  } catch {
    // Storage full or disabled.
  }
}
