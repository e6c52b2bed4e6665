/** Parsers of option values and of the command line; each throws an Error naming the option. */
import { OPTIONS } from "./options.ts";

/** Parses a Go-style duration ("2h", "90m", "1h30m", "45s") into seconds; null if invalid. */
export function parseDuration(text: string): number | null {
  const s = text.trim();
  if (!s) return null;
  if (/^\d+$/.test(s)) return Number(s);
  // "ms" before "m": otherwise "500ms" reads as 500 minutes followed by a stray "s".
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
  let total = 0;
  let consumed = 0;
  for (const m of s.matchAll(re)) {
    const n = Number(m[1]);
    total += m[2] === "h" ? n * 3600 : m[2] === "m" ? n * 60 : m[2] === "s" ? n : n / 1000;
    consumed += m[0].length;
  }
  return consumed === s.length ? total : null;
}

/** Parses a size with an optional K, M, G or T suffix (powers of 1024); null unless a positive safe integer. */
export function parseSize(text: string): number | null {
  const m = /^(\d+)\s*([KMGT]?)i?B?$/i.exec(text.trim());
  const n = m ? Number(m[1]) * 1024 ** " KMGT".indexOf((m[2] || " ").toUpperCase()) : NaN;
  return Number.isSafeInteger(n) && n >= 1 ? n : null;
}

/**
 * Parses `--name value`, `--name=value`, `-x value` and boolean `--flag` (or `--flag=false`).
 * Our own small parser: node:util's parseArgs costs ~6 MiB of memory to load in Deno.
 */
export function parseFlags(args: string[]): Record<string, string | boolean | undefined> {
  const out: Record<string, string | boolean | undefined> = {};
  const byShort = new Map(OPTIONS.filter((o) => o.short).map((o) => [o.short!, o]));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "-h" || arg === "--help") {
      out.help = true;
      continue;
    }
    const long = arg.match(/^--([a-z-]+)(?:=(.*))?$/);
    const short = arg.match(/^-([a-zA-Z])$/);
    const spec = long ? OPTIONS.find((o) => o.name === long[1]) : short ? byShort.get(short[1]) : undefined;
    if (!spec) throw new Error(`Unknown option "${arg}"`);
    const inline = long?.[2];
    if (spec.type === "boolean") {
      out[spec.name] = inline === undefined ? true : /^(1|true|yes|on)$/i.test(inline);
    } else if (inline !== undefined) {
      out[spec.name] = inline;
    } else {
      if (i + 1 >= args.length) throw new Error(`Option "${arg}" needs a value`);
      out[spec.name] = args[++i];
    }
  }
  return out;
}

/** The verification provider's base URL: http(s), no query, fragment or credentials, no trailing slash. */
export function parseRecaptchaHost(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new Error(`Invalid value for --recaptcha-host: "${text}"`);
  }
  if (!/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new Error(`Invalid value for --recaptcha-host: "${text}" (an http(s) origin is expected)`);
  }
  return url.origin + url.pathname.replace(/\/+$/, "");
}

/** An optional http(s) link target: "" stays "", anything else must be an absolute http(s) URL without credentials. */
export function parseLinkUrl(name: string, text: string): string {
  const value = text.trim();
  if (!value) return "";
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch { /* reported below */ }
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password) {
    throw new Error(`Invalid value for --${name}: "${text}" (an http(s) URL is expected)`);
  }
  return url.href;
}
