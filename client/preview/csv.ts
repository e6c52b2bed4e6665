// This module is browser-compatible.
/** CSV for the table view: decoding the raw bytes, guessing the delimiter, and an RFC 4180 parser. */

/** Rows shown at most; the table says how many were left out. */
export const CSV_MAX_ROWS = 2000;

const DELIMITERS = [",", ";", "\t", "|"] as const;

/** Decodes file bytes: UTF-8 (BOM stripped, also UTF-16 with a BOM), else Windows-1252 for legacy exports. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  try {
    // ignoreBOM false (the default) drops a UTF-8 BOM.
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

/** The delimiter used by the first line (outside quotes): the most frequent of `,` `;` tab `|`, else `,`. */
export function guessDelimiter(text: string): string {
  const counts = new Map<string, number>();
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) break;
    else if (!quoted && (DELIMITERS as readonly string[]).includes(ch)) {
      counts.set(ch, (counts.get(ch) ?? 0) + 1);
    }
  }
  let best = ",";
  let max = 0;
  for (const d of DELIMITERS) {
    const n = counts.get(d) ?? 0;
    if (n > max) [best, max] = [d, n];
  }
  return best;
}

/** Parsed CSV: the rows (each an array of fields) and whether the row limit cut the file. */
export interface CsvTable {
  rows: string[][];
  truncated: boolean;
}

/**
 * Parses CSV text: quoted fields may hold delimiters, newlines and doubled quotes (`""`); CRLF, LF and CR end rows;
 * a trailing newline adds no empty row. Stops after `maxRows` rows.
 */
export function parseCsv(text: string, options: { delimiter?: string; maxRows?: number } = {}): CsvTable {
  const delimiter = options.delimiter ?? guessDelimiter(text);
  const maxRows = options.maxRows ?? CSV_MAX_ROWS;
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let fieldStarted = false;
  let i = 0;
  const endRow = () => {
    row.push(field);
    rows.push(row);
    row = [];
    field = "";
    fieldStarted = false;
  };
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += ch;
      i++;
      continue;
    }
    if (ch === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
    } else if (ch === delimiter) {
      row.push(field);
      field = "";
      fieldStarted = false;
    } else if (ch === "\r" || ch === "\n") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      endRow();
      if (rows.length >= maxRows) {
        return { rows, truncated: i + 1 < text.length };
      }
    } else {
      field += ch;
      fieldStarted = true;
    }
    i++;
  }
  if (fieldStarted || field !== "" || row.length > 0) endRow();
  return { rows, truncated: false };
}
