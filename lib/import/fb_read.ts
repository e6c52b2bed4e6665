/**
 * Reads filebrowser's records out of its bbolt file, as storm laid them out: buckets `User` (8-byte big-endian
 * id keys), `Link` (share hash keys) and `config` (settings, server, auther, version), JSON values. storm's own
 * sub-buckets (metadata, indexes) are skipped. A record that is not a JSON object is an error naming it.
 */
import { BadRequestError } from "../errors.ts";
import { BoltDb, type Bucket } from "../bbolt/db.ts";

/** filebrowser data we cannot read; the message names the bucket and record. */
export class FbDataError extends BadRequestError {
  constructor(message: string) {
    super(message, { code: "bad_filebrowser_data" });
    this.name = "FbDataError";
  }
}

/** One JSON record and where it was found (e.g. `User/3`, `Link/aBcD1234`, `config/settings`). */
export interface FbRecord {
  where: string;
  value: Record<string, unknown>;
}

/** Everything an import reads from a filebrowser database. */
export interface FbRecords {
  users: FbRecord[];
  links: FbRecord[];
  settings: FbRecord | null;
  server: FbRecord | null;
  auther: FbRecord | null;
  /** config/version (2 for every filebrowser 2.x), null when absent. */
  version: number | null;
  /** Top-level buckets and config keys we do not know (reported, not read). */
  unknown: string[];
  /** The meta page used and its transaction id. */
  meta: { page: number; txid: bigint; pageSize: number };
}

const decoder = new TextDecoder("utf-8", { fatal: true });
const KNOWN_BUCKETS = new Set(["User", "Link", "config", "__storm_db"]);
const CONFIG_KEYS = new Set(["settings", "server", "auther", "version"]);

function text(bytes: Uint8Array, where: string): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new FbDataError(`${where}: not UTF-8 text`);
  }
}

function json(bytes: Uint8Array, where: string): unknown {
  try {
    return JSON.parse(text(bytes, where));
  } catch (err) {
    if (err instanceof FbDataError) throw err;
    throw new FbDataError(`${where}: not valid JSON (${(err as Error).message})`);
  }
}

function object(bytes: Uint8Array, where: string): Record<string, unknown> {
  const v = json(bytes, where);
  if (!v || typeof v !== "object" || Array.isArray(v)) throw new FbDataError(`${where}: not a JSON object`);
  return v as Record<string, unknown>;
}

function userId(key: Uint8Array): number {
  if (key.length !== 8) throw new FbDataError(`User: a key of ${key.length} bytes is not a user id`);
  const v = new DataView(key.buffer, key.byteOffset, 8).getBigUint64(0);
  if (v === 0n || v > BigInt(Number.MAX_SAFE_INTEGER)) throw new FbDataError(`User/${v}: id out of range`);
  return Number(v);
}

function records(bucket: Bucket | null, keyName: (key: Uint8Array) => string): FbRecord[] {
  const out: FbRecord[] = [];
  if (!bucket) return out;
  for (const e of bucket.entries()) {
    if (e.bucket) continue; // storm's __storm_metadata and __storm_index_* sub-buckets
    const where = `${bucket.path}/${keyName(e.key)}`;
    out.push({ where, value: object(e.value, where) });
  }
  return out;
}

/** Reads the records of a filebrowser database from its bytes (nothing is written anywhere). */
export function readFbRecords(file: Uint8Array): FbRecords {
  const db = BoltDb.open(file);
  const unknown: string[] = [];
  for (const e of db.root().entries()) {
    const name = text(e.key, "root bucket");
    if (!e.bucket) unknown.push(`key ${name} at the top level`);
    else if (!KNOWN_BUCKETS.has(name)) unknown.push(`bucket ${name}`);
  }
  const config = db.bucket("config");
  const one = (key: string) => {
    const v = config?.get(key);
    return v ? { where: `config/${key}`, value: object(v, `config/${key}`) } : null;
  };
  let version: number | null = null;
  const rawVersion = config?.get("version");
  if (rawVersion) {
    const v = json(rawVersion, "config/version");
    if (typeof v !== "number" || !Number.isInteger(v)) throw new FbDataError("config/version: not a number");
    version = v;
  }
  if (config) {
    for (const e of config.entries()) {
      const name = text(e.key, "config");
      if (e.bucket || !CONFIG_KEYS.has(name)) unknown.push(`config/${name}`);
    }
  }
  const users = records(db.bucket("User"), (k) => String(userId(k)));
  const links = records(db.bucket("Link"), (k) => text(k, "Link"));
  if (!db.bucket("User") && !config) {
    throw new FbDataError(
      "a bbolt database, but not filebrowser's: it has neither a User nor a config bucket",
    );
  }
  return {
    users,
    links,
    settings: one("settings"),
    server: one("server"),
    auther: one("auther"),
    version,
    unknown,
    meta: { page: db.meta.page, txid: db.meta.txid, pageSize: db.meta.pageSize },
  };
}
