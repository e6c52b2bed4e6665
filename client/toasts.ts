// This module is browser-compatible.
/**
 * Toasts: success messages vanish after 1 s, errors stay until closed or until the next outcome (a success or
 * other errors) replaces them, so an old failure never lingers next to a newer result; at most 5 are visible.
 */
import { signal } from "@preact/signals";
import { ApiError } from "./api/errors.ts";
import { t } from "./hooks.ts";

/** One toast. */
export interface Toast {
  id: number;
  kind: "success" | "error";
  message: string;
  /** Offer "Report issue" (errors only; off for expected refusals such as a 403 on deleting the last admin). */
  report?: boolean;
}

/** Success toasts disappear after this many milliseconds. */
export const SUCCESS_TIMEOUT_MS = 1000;
/** At most this many toasts are visible; older ones are dropped. */
export const MAX_TOASTS = 5;

/** Visible toasts, oldest first. */
export const toasts = signal<Toast[]>([]);

let nextId = 1;

/** Replaces the error toasts (those of an earlier outcome) by `next`. */
function replace(next: Toast[]): void {
  toasts.value = [...toasts.value.filter((x) => x.kind !== "error"), ...next].slice(-MAX_TOASTS);
}

/** Removes a toast. */
export function dismissToast(id: number): void {
  toasts.value = toasts.value.filter((x) => x.id !== id);
}

/** Shows a short success message. */
export function showSuccess(message: string): void {
  const id = nextId++;
  replace([{ id, kind: "success", message }]);
  setTimeout(() => dismissToast(id), SUCCESS_TIMEOUT_MS);
}

const CARRIED_KEY = "toast.next-page";

/**
 * Shows a success message on the next page, for a success followed by a full page load (`location.assign`), which
 * would otherwise wipe the toast at once. The message waits in sessionStorage until `showCarriedSuccess()`.
 */
export function showSuccessOnNextPage(message: string): void {
  try {
    sessionStorage.setItem(CARRIED_KEY, message);
  } catch {
    showSuccess(message); // Storage disabled: at least a glimpse.
  }
}

/** Shows (once) the success message the previous page left with `showSuccessOnNextPage()`. */
export function showCarriedSuccess(): void {
  let message: string | null = null;
  try {
    message = sessionStorage.getItem(CARRIED_KEY);
    sessionStorage.removeItem(CARRIED_KEY);
  } catch {
    // Storage disabled: nothing was carried.
  }
  if (message) showSuccess(message);
}

/** The translated message for a failed call (by status; never the raw server text except for 400). */
export function errorMessage(err: unknown): string {
  if (!(err instanceof ApiError)) return t("errors.internal");
  switch (err.status) {
    case 0:
      return t("errors.connection");
    case 400:
      return t("errors.badRequest", { detail: err.message.replace(/^400 Bad Request\s*\(?|\)$/g, "") });
    case 403:
      return t("errors.forbidden");
    case 404:
      return t("errors.notFound");
    case 409:
      return t("errors.conflict");
    case 413:
      return t("errors.tooLarge");
    case 423:
      return t("errors.locked");
    case 429:
      return t("errors.tooManyRequests");
    case 507:
      return t("errors.quota");
    default:
      return t("errors.internal");
  }
}

/** Options of showError. */
export interface ShowErrorOptions {
  /** Offer "Report issue" (default true; a 403 is never reported, it is a refusal, not a fault). */
  report?: boolean;
}

/**
 * Shows a sticky error; `action` names what failed (already translated), e.g. `Cannot delete "a.txt"`.
 * It has Close and, when the instance names an issue tracker, "Report issue".
 */
export function showError(err: unknown, action?: string, options: ShowErrorOptions = {}): void {
  showErrors([{ err, action }], options);
}

/** Shows a sticky error whose text the caller made (already translated): a refusal checked in the browser. */
export function showErrorText(message: string): void {
  replace([{ id: nextId++, kind: "error", message, report: false }]);
}

/** Shows the errors of one outcome together (e.g. every item a copy could not copy), replacing older errors. */
export function showErrors(
  list: readonly { err: unknown; action?: string }[],
  options: ShowErrorOptions = {},
): void {
  if (!list.length) return;
  replace(list.map(({ err, action }) => {
    const message = errorMessage(err);
    // A 403 is a refusal, not a fault: never offered for reporting.
    const forbidden = err instanceof ApiError && err.status === 403;
    return {
      id: nextId++,
      kind: "error" as const,
      message: action ? `${action}: ${message}` : message,
      report: (options.report ?? true) && !forbidden,
    };
  }));
}

/**
 * The new-issue link for an error: the tracker URL with the error text as `title` and, with the version, as
 * `body`. Nothing is sent by itself: the user opens the link and decides. No paths or file names are added.
 */
export function issueUrl(tracker: string, message: string, version: string): string {
  const url = new URL(tracker);
  url.searchParams.set("title", message.slice(0, 200));
  url.searchParams.set("body", `${message}\n\nVersion: ${version || "unknown"}`);
  return url.href;
}
