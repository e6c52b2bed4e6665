// This module is browser-compatible.
/** Numbers of the upload panel in the user's locale: percentages ("25%", "%25" in Turkish) and MB/s figures. */
import { intlTag } from "../../lib/i18n.ts";

const percents = new Map<string, Intl.NumberFormat>();
const speeds = new Map<string, Intl.NumberFormat>();

function cached(map: Map<string, Intl.NumberFormat>, locale: string, options: Intl.NumberFormatOptions) {
  let f = map.get(locale);
  if (!f) map.set(locale, f = new Intl.NumberFormat(intlTag(locale), options));
  return f;
}

/** A whole percentage (0–100) written the locale's way. */
export function formatPercent(percent: number, locale: string): string {
  return cached(percents, locale, { style: "percent", maximumFractionDigits: 0 }).format(percent / 100);
}

/** A speed in MiB/s with two decimals (the unit comes from the translation). */
export function formatSpeed(speedMbyte: number, locale: string): string {
  return cached(speeds, locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })
    .format(Number.isFinite(speedMbyte) ? speedMbyte : 0);
}
