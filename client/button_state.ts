// This module is browser-compatible.
/**
 * Icon states of the header action buttons: while an action's work runs its button shows a spinner (only when the
 * work takes longer than ~100 ms, so quick actions do not flicker), then a check mark for ~500 ms on success, then
 * its own icon again. A failure goes straight back to the icon (the error toast says what went wrong).
 */
import { signal } from "@preact/signals";

/** A spinner appears only for work still running after this long, ms. */
export const SPINNER_DELAY_MS = 100;
/** How long the check mark stays after a success, ms. */
export const SUCCESS_MS = 500;

/** The state of each action button that is not in its resting state, by action id. */
export const buttonStates = signal<ReadonlyMap<string, "loading" | "success">>(new Map());

function set(id: string, state: "loading" | "success" | null): void {
  const next = new Map(buttonStates.value);
  if (state) next.set(id, state);
  else next.delete(id);
  buttonStates.value = next;
}

let generation = 0;
const latest = new Map<string, number>();

/**
 * Shows the states of `work` on the button of action `id` and returns its result. A result of `false` counts as a
 * failure (the operations of client/file_ops.ts report errors themselves and answer false).
 */
export async function trackButton<T>(id: string, work: Promise<T>): Promise<T> {
  const mine = ++generation;
  latest.set(id, mine);
  const spinner = setTimeout(() => latest.get(id) === mine && set(id, "loading"), SPINNER_DELAY_MS);
  let ok = false;
  try {
    const result = await work;
    ok = result !== false;
    return result;
  } finally {
    clearTimeout(spinner);
    if (latest.get(id) === mine) {
      set(id, ok ? "success" : null);
      if (ok) setTimeout(() => latest.get(id) === mine && set(id, null), SUCCESS_MS);
    }
  }
}
