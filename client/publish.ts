// This module is browser-compatible.
/**
 * Publishing in the browser: the site info of the current user (loaded once per page; the calls of /api/publish
 * are in client/api/publish.ts), and the conversions between the date-time picker (local wall time) and ISO dates with the user's offset.
 */
import { signal } from "@preact/signals";
import type { PublishSchedule, SiteInfo } from "../lib/types.ts";
import { ApiError } from "./api/errors.ts";
import { getSiteInfo } from "./api/publish.ts";
import { t } from "./hooks.ts";
import { errorMessage } from "./toasts.ts";

/** The site info of the current user; null until loaded (or when publishing is unavailable). */
export const siteInfo = signal<SiteInfo | null>(null);

let loading: Promise<void> | null = null;

/** Loads the site info once per page (later calls reuse the first). */
export function loadSiteInfo(): Promise<void> {
  loading ??= getSiteInfo().then((info) => {
    siteInfo.value = info;
  }, () => {
    loading = null; // Try again on the next call.
  });
  return loading;
}

/** True when `path` is `dir` or lies beneath it (vpaths, by whole segments). */
export function isUnder(dir: string, path: string): boolean {
  const d = dir.replace(/\/+$/, "");
  const p = path.replace(/\/+$/, "");
  return d === "" || p === d || p.startsWith(d + "/");
}

/** The folder of `path` relative to the content folder ("" at its top). */
export function sectionOf(content: string, dir: string): string {
  const d = dir.replace(/\/+$/, "");
  const c = content.replace(/\/+$/, "");
  return d.length > c.length ? d.slice(c.length + 1) : "";
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, "0");

/** An ISO 8601 date with the browser's offset for that moment (`2031-05-04T09:30:00+02:00`). */
export function isoWithOffset(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const sign = offset < 0 ? "-" : "+";
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:` +
    `${pad(date.getMinutes())}:${pad(date.getSeconds())}${sign}${pad(Math.trunc(offset / 60))}:${
      pad(offset % 60)
    }`;
}

/** The value of a `datetime-local` input for a moment (local wall time, minutes). */
export function toPickerValue(ms: number): string {
  return isoWithOffset(new Date(ms)).slice(0, 16);
}

/** The ISO date (with offset) of a `datetime-local` value; null when it is empty or invalid. */
export function fromPickerValue(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const date = new Date(value); // A date-time without offset is local time.
  return Number.isNaN(date.getTime()) ? null : isoWithOffset(date);
}

/** The picker's default: the next full hour at least 30 minutes ahead. */
export function defaultPublishTime(now: number): number {
  const hour = 3600_000;
  return Math.ceil((now + hour / 2) / hour) * hour;
}

/** The message of a failed run by its error code (`build_failed` names the exit code). */
export function scheduleErrorMessage(s: PublishSchedule): string {
  switch (s.error) {
    case "build_failed":
      return t("publish.errors.build", { code: s.buildCode ?? "?" });
    case "no_front_matter":
      return t("publish.errors.frontMatter");
    case "outside_content":
    case "rule_denied":
    case "permission_denied":
      return t("publish.errors.outside");
    case "not_found":
      return t("publish.errors.notFound");
    default:
      return t("publish.errors.failed", { code: s.error ?? "?" });
  }
}

/** The message of a failed publish call, per status, for the prompts. */
export function publishCallMessage(err: unknown, call: "create" | "schedule" | "now", name: string): string {
  const status = err instanceof ApiError ? err.status : -1;
  if (status === 409 && call === "create") return t("publish.errors.exists", { name });
  if (status === 400) {
    return t(
      call === "create"
        ? "publish.errors.title"
        : call === "schedule"
        ? "publish.errors.date"
        : "publish.errors.frontMatter",
    );
  }
  if (status === 403) return t(call === "create" ? "publish.errors.forbidden" : "publish.errors.outside");
  if (status === 404) return t("publish.errors.notFound");
  return errorMessage(err);
}
