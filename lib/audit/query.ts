/** Reading the audit log: filters, newest-first pages with a cursor, and the CSV export. */
import { BadRequestError } from "../errors.ts";
import { keys } from "../storage/keys.ts";
import type { AuditEntry } from "./mod.ts";

/** Filters of a listing; every one is optional. */
export interface AuditFilter {
  /** Username, case-insensitive exact match. */
  user?: string;
  /** Action name, or its group before the dot ("file" matches "file.delete"). */
  action?: string;
  /** Text the path or the target contains. */
  path?: string;
  /** Earliest time (ms), inclusive. */
  from?: number;
  /** Latest time (ms), inclusive. */
  to?: number;
}

/** Most entries one JSON page returns. */
export const MAX_PAGE = 1000;
/** Most entries one JSON page looks at: a page of a rare match may come back short, with a cursor to go on. */
export const MAX_SCAN = 20_000;

function parseTime(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  // Milliseconds, or an ISO 8601 date or date-time (nothing else: Date.parse guesses at free text).
  const n = /^\d{1,16}$/.test(value)
    ? Number(value)
    : /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)
    ? Date.parse(value)
    : NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw new BadRequestError(`invalid ${name}`, { code: "bad_time" });
  return n;
}

/** Reads the filters from query parameters; a malformed time is a 400. */
export function filterFromQuery(q: (name: string) => string | undefined): AuditFilter {
  return {
    user: q("user") || undefined,
    action: q("action") || undefined,
    path: q("path") || undefined,
    from: parseTime("from", q("from")),
    to: parseTime("to", q("to")),
  };
}

/** True when the entry passes every filter. */
export function matches(entry: AuditEntry, f: AuditFilter): boolean {
  if (f.user !== undefined && entry.user.toLowerCase() !== f.user.toLowerCase()) return false;
  if (f.action !== undefined && entry.action !== f.action && !entry.action.startsWith(f.action + ".")) {
    return false;
  }
  if (f.path !== undefined && !entry.path.includes(f.path) && !entry.target.includes(f.path)) return false;
  return true;
}

/** The cursor of an entry: where the next (older) page starts. */
export function encodeCursor(entry: Pick<AuditEntry, "time" | "id">): string {
  return `${entry.time}.${entry.id}`;
}

function decodeCursor(cursor: string): [number, string] {
  const m = /^(\d{1,16})\.([0-9a-z]{1,64})$/.exec(cursor);
  if (!m) throw new BadRequestError("invalid cursor", { code: "bad_cursor" });
  return [Number(m[1]), m[2]];
}

function selector(f: AuditFilter, cursor?: string): Deno.KvListSelector {
  const start = f.from !== undefined ? keys.auditEntryBefore(f.from) : keys.auditPrefix();
  let end: Deno.KvKey = f.to !== undefined ? keys.auditEntryBefore(f.to + 1) : keys.auditEnd();
  if (cursor) {
    const [time, id] = decodeCursor(cursor);
    // The cursor's key lies below the `to` bound exactly when its time is not after `to`.
    if (f.to === undefined || time <= f.to) end = keys.auditEntry(time, id);
  }
  return { start, end };
}

/** Newest-first entries that pass the filter (older than `cursor`, when given). */
export async function* auditEntries(
  kv: Deno.Kv,
  f: AuditFilter,
  cursor?: string,
): AsyncGenerator<{ entry: AuditEntry; scanned: number }> {
  let scanned = 0;
  for await (const e of kv.list<AuditEntry>(selector(f, cursor), { reverse: true, batchSize: 500 })) {
    scanned++;
    if (matches(e.value, f)) yield { entry: e.value, scanned };
    else if (scanned % 500 === 0) yield { entry: e.value, scanned: -scanned };
  }
}

/** One JSON page: up to `limit` entries and the cursor of the next page (null at the end). */
export async function auditPage(
  kv: Deno.Kv,
  f: AuditFilter,
  options: { limit: number; cursor?: string },
): Promise<{ entries: AuditEntry[]; cursor: string | null }> {
  const entries: AuditEntry[] = [];
  for await (const { entry, scanned } of auditEntries(kv, f, options.cursor)) {
    // A negative count is a progress mark of a non-matching entry: stop there if the scan is long enough.
    if (scanned < 0) {
      if (-scanned >= MAX_SCAN) return { entries, cursor: encodeCursor(entry) };
      continue;
    }
    entries.push(entry);
    if (entries.length >= options.limit) return { entries, cursor: encodeCursor(entry) };
    if (scanned >= MAX_SCAN) return { entries, cursor: encodeCursor(entry) };
  }
  return { entries, cursor: null };
}

/** Columns of the CSV export, in order. */
export const CSV_COLUMNS = [
  "time",
  "user",
  "action",
  "path",
  "target",
  "client",
  "status",
  "ok",
  "detail",
] as const;

/**
 * Where a spreadsheet may start a cell: the start of the field, and after any character it may take for a
 * separator or a line end (`;` in locales whose lists use commas, `,`, tab, CR, LF), whether or not the field
 * is quoted (a program told `;` splits `"a;=b"` too). A formula starter there (`=`, `+`, `-`, `@`, tab, CR)
 * gets a `'` before it.
 */
const CELL_START = /(?<=^|[;,\t\r\n])(?=[=+\-@\t\r])/g;

/**
 * One CSV text field (names, paths, details: text anyone may have chosen): formulas defused at every cell
 * start (see above), always quoted, its quotes doubled.
 */
export function csvField(value: string): string {
  return `"${value.replace(CELL_START, "'").replaceAll('"', '""')}"`;
}

/** One CSV row (CRLF-terminated) of an entry. */
export function csvRow(entry: AuditEntry): string {
  // The time, the status and `ok` are the server's own (digits, `true`); every other column is quoted text.
  const cells = [
    new Date(entry.time).toISOString(),
    csvField(entry.user),
    csvField(entry.action),
    csvField(entry.path),
    csvField(entry.target),
    csvField(entry.client),
    String(entry.status),
    entry.ok ? "true" : "false",
    csvField(entry.detail),
  ];
  return cells.join(",") + "\r\n";
}

/** The whole filtered log as a CSV stream, newest first, header row first. */
export function auditCsv(kv: Deno.Kv, f: AuditFilter): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let rows: AsyncGenerator<{ entry: AuditEntry; scanned: number }> | null = null;
  return new ReadableStream({
    start(controller) {
      controller.enqueue(enc.encode(CSV_COLUMNS.join(",") + "\r\n"));
      rows = auditEntries(kv, f);
    },
    async pull(controller) {
      let chunk = "";
      while (chunk.length < 32_768) {
        const next = await rows!.next();
        if (next.done) {
          if (chunk) controller.enqueue(enc.encode(chunk));
          controller.close();
          return;
        }
        if (next.value.scanned > 0) chunk += csvRow(next.value.entry);
      }
      controller.enqueue(enc.encode(chunk));
    },
    async cancel() {
      await rows?.return(undefined);
    },
  });
}
