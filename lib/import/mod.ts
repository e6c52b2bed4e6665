/**
 * Moving in from filebrowser: reads its bbolt database (read-only) and imports users (ids, bcrypt hashes,
 * scopes, permissions, rules), shares (same hashes, so links keep working) and settings. A dry run writes
 * nothing. See docs/migration.md.
 */
import { defaultSettings } from "../settings.ts";
import { keys, Store } from "../storage/mod.ts";
import type { FilebrowserImport, Settings } from "../types.ts";
import { removeDisplaced, writeShares, writeUsers } from "./apply.ts";
import { decodeSettings, serverFlags } from "./fb_config.ts";
import { type BadRule, decodeShare, decodeUser } from "./fb_decode.ts";
import { FbDataError, readFbRecords } from "./fb_read.ts";
import { planShares, planUsers, takeSnapshot, usernameProblem } from "./plan.ts";

export { FbDataError } from "./fb_read.ts";
export { BoltFormatError } from "../bbolt/db.ts";

/** Options of importFilebrowser. */
export interface ImportOptions {
  /** Report only; write nothing. */
  dryRun?: boolean;
  /** Overwrite users and shares that clash with existing ones (default: report and skip them). */
  replace?: boolean;
  /** Clock in milliseconds. */
  now?: number;
  /** Name of the file, for the report. */
  source?: string;
  /** Settings to start from when KV has none yet (before the first start). */
  initialSettings?: Settings;
}

/** Counts of one kind of entity. */
export interface Counts {
  imported: number;
  unchanged: number;
  skipped: number;
}

/** What an import did (or would do). */
export interface ImportReport {
  dryRun: boolean;
  users: Counts;
  shares: Counts;
  settings: boolean;
  /** Start-up flags of ours matching filebrowser's server options. */
  flags: string[];
  /** One line per conflict, skipped record, broken rule, unknown field or setting without a counterpart. */
  lines: string[];
  meta: { page: number; txid: bigint; pageSize: number };
}

/** filebrowser 2.x writes config/version 2. */
const KNOWN_VERSION = 2;
const MAX_RECORD_LINES = 200;

function ruleLines(who: string, bad: BadRule[]): string[] {
  return bad.map((r) =>
    `${who}: rule ${
      r.index + 1
    } regex "${r.raw}" does not compile (${r.error}); kept, and it denies every path ` +
    "until an admin fixes it"
  );
}

/** Imports a filebrowser database (its bytes) into KV, or reports what it would do with `dryRun`. */
export async function importFilebrowser(
  kv: Deno.Kv,
  file: Uint8Array,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const now = options.now ?? Date.now();
  const rec = readFbRecords(file);
  if (rec.version !== null && rec.version > KNOWN_VERSION) {
    throw new FbDataError(
      `config/version: written by a newer filebrowser (database version ${rec.version}; this importer reads ${KNOWN_VERSION})`,
    );
  }
  const lines: string[] = rec.unknown.map((u) => `${u}: unknown to this importer, not read`);
  // Decode everything before writing anything: a bad record stops the import with nothing written.
  const users = rec.users.map((r) => decodeUser(r, now));
  const shares = rec.links.map(decodeShare);
  const store = new Store(kv);
  const current = (await store.findSettings()) ?? options.initialSettings ?? defaultSettings();
  const settings = rec.settings ? decodeSettings(rec.settings, current) : null;
  const server = serverFlags(rec.server, settings?.authMethod ?? "json", rec.auther);
  const target = settings?.settings ?? current;
  if (settings) {
    if (settings.unknown.length) {
      lines.push(`settings: unknown fields ${settings.unknown.join(", ")}; not imported`);
    }
    lines.push(...ruleLines("settings", settings.badRules));
    for (const d of settings.dropped) lines.push(`settings: not imported: ${d}`);
  }
  if (server.unknown.length) lines.push(`server: unknown fields ${server.unknown.join(", ")}; not imported`);
  lines.push(...server.notes.map((n) => `server: ${n}`));
  const flags = [...server.flags];
  if (settings && target.minimumPasswordLength !== 12) {
    flags.push(`--min-password-length ${target.minimumPasswordLength}`);
  }
  for (const u of users) {
    const who = `user ${u.user.id} ${JSON.stringify(u.user.username)}`;
    // Logins, signup and the user editor use the NFC form of a name: so does the imported user.
    const nfc = u.user.username.normalize("NFC");
    if (nfc !== u.user.username && usernameProblem(nfc) === null) {
      lines.push(`${who}: imported as ${JSON.stringify(nfc)}, the same name in NFC (the form logins use)`);
      u.user.username = nfc;
    }
    if (u.unknown.length) lines.push(`${who}: unknown fields ${u.unknown.join(", ")}; not imported`);
    lines.push(...ruleLines(who, u.badRules));
  }
  for (const s of shares) {
    if (s.unknown.length) lines.push(`share ${s.share.hash}: unknown fields ${s.unknown.join(", ")}`);
  }

  let snap = await takeSnapshot(kv);
  let userPlan = planUsers(users, snap, target, options.replace === true);
  let sharePlan = planShares(shares, userPlan, snap, options.replace === true, now);
  const verb = options.dryRun ? "would be" : "was";
  for (const p of userPlan) {
    const who = `user ${p.item.user.id} ${JSON.stringify(p.item.user.username)}`;
    if (p.action.kind === "skip") {
      lines.push(`${who}: skipped, ${p.action.reason}${p.action.final ? "" : " (--replace overwrites)"}`);
    }
    if (p.action.kind === "update") lines.push(`${who}: ${verb} overwritten (--replace)`);
    if (p.action.kind === "replace") {
      lines.push(`${who}: existing users ${p.action.remove.join(", ")} ${verb} deleted (--replace)`);
    }
  }
  for (const p of sharePlan) {
    if (p.action.kind === "skip") lines.push(`share ${p.item.share.hash}: skipped, ${p.action.reason}`);
    if (p.action.kind === "update") lines.push(`share ${p.item.share.hash}: ${verb} overwritten (--replace)`);
  }
  const count = <A extends { kind: string }>(plan: { action: A }[]): Counts => ({
    imported: plan.filter((p) => p.action.kind !== "skip" && p.action.kind !== "unchanged").length,
    unchanged: plan.filter((p) => p.action.kind === "unchanged").length,
    skipped: plan.filter((p) => p.action.kind === "skip").length,
  });
  const report: ImportReport = {
    dryRun: options.dryRun === true,
    users: count(userPlan),
    shares: count(sharePlan),
    settings: settings !== null,
    flags,
    lines,
    meta: rec.meta,
  };
  if (options.dryRun) return report;

  if (userPlan.some((p) => p.action.kind === "replace" || p.action.kind === "update")) {
    await removeDisplaced(kv, userPlan, now);
    snap = await takeSnapshot(kv);
    // Displaced users are gone: plan again against what is left (their replacements are now plain creates).
    userPlan = planUsers(users, snap, target, true);
    sharePlan = planShares(shares, userPlan, snap, true, now);
  }
  if (settings) await store.saveSettings(settings.settings);
  await store.getSecret();
  const wroteUsers = await writeUsers(kv, userPlan);
  const wroteShares = await writeShares(kv, sharePlan);
  lines.push(...wroteUsers.failed, ...wroteShares.failed);
  report.users.imported = wroteUsers.written;
  report.shares.imported = wroteShares.written;
  report.users.skipped += wroteUsers.failed.length;
  report.shares.skipped += wroteShares.failed.length;
  const record: FilebrowserImport = {
    at: now,
    source: options.source ?? "filebrowser.db",
    users: report.users.imported + report.users.unchanged,
    shares: report.shares.imported + report.shares.unchanged,
    skipped: report.users.skipped + report.shares.skipped,
    lines: lines.slice(0, MAX_RECORD_LINES).map((l) => l.slice(0, 300)),
  };
  await kv.set(keys.filebrowserImport(), record);
  return report;
}

/** The record of the last import, or null. */
export async function findImportRecord(kv: Deno.Kv): Promise<FilebrowserImport | null> {
  return (await kv.get<FilebrowserImport>(keys.filebrowserImport())).value;
}

/** The report as text lines for the terminal. */
export function formatReport(r: ImportReport): string[] {
  const c = (x: Counts) =>
    `${x.imported} ${
      r.dryRun ? "to import" : "imported"
    }, ${x.unchanged} already there, ${x.skipped} skipped`;
  const out = [
    `${
      r.dryRun ? "Dry run: nothing written. " : ""
    }Read meta page ${r.meta.page} (transaction ${r.meta.txid}, ${r.meta.pageSize}-byte pages).`,
    `Users: ${c(r.users)}.`,
    `Shares: ${c(r.shares)}.`,
    `Settings: ${r.settings ? (r.dryRun ? "would be imported" : "imported") : "none in the file"}.`,
  ];
  if (r.lines.length) out.push("", "Notes:", ...r.lines.map((l) => `  - ${l}`));
  if (r.flags.length) {
    out.push(
      "",
      "filebrowser's server options are start-up flags here; start with:",
      `  deno task start ${r.flags.join(" ")}`,
    );
  }
  return out;
}
