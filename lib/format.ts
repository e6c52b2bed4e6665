// This module is browser-compatible.
/** Human-readable sizes and dates through the user's locale (binary units, relative times, full dates). */
import { intlTag } from "./i18n.ts";

const UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];

const numberFormats = new Map<string, Intl.NumberFormat>();
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function numberFormat(locale: string): Intl.NumberFormat {
  let f = numberFormats.get(locale);
  if (!f) numberFormats.set(locale, f = new Intl.NumberFormat(intlTag(locale), { maximumFractionDigits: 2 }));
  return f;
}

/** Formats a byte count in binary units with at most 2 decimals: `1.5 KiB`, `12 B`. */
export function formatSize(bytes: number, locale = "en"): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "";
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${numberFormat(locale).format(value)} ${UNITS[unit]}`;
}

/** Formats a plain number with the locale's digits and separators. */
export function formatNumber(n: number, locale = "en"): string {
  return numberFormat(locale).format(n);
}

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 30],
  ["month", 12],
  ["year", Infinity],
];

/** A relative time such as "5 hours ago" or "in 2 days" for an ISO date; `now` in milliseconds. */
export function formatRelative(iso: string, options: { locale?: string; now?: number } = {}): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return "";
  const locale = options.locale ?? "en";
  let f = relativeFormats.get(locale);
  if (!f) relativeFormats.set(locale, f = new Intl.RelativeTimeFormat(intlTag(locale), { numeric: "auto" }));
  let value = (time - (options.now ?? Date.now())) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return f.format(Math.round(value), unit);
    value /= size;
  }
  return "";
}

/** The full date and time of an ISO date in the locale, for tooltips and absolute-date mode. */
export function formatDate(iso: string, locale = "en"): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return "";
  let f = dateFormats.get(locale);
  if (!f) {
    dateFormats.set(
      locale,
      f = new Intl.DateTimeFormat(intlTag(locale), { dateStyle: "medium", timeStyle: "medium" }),
    );
  }
  return f.format(time);
}

/** Percentage (0-100, rounded) of used over total; 0 when total is 0. */
export function percentOf(used: number, total: number): number {
  return total > 0 ? Math.min(100, Math.max(0, Math.round((used / total) * 100))) : 0;
}
