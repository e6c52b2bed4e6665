/**
 * WebDAV dead properties in KV, keyed by the resource's real path and the property's Clark name
 * (`{ns}name`). Each value holds the property element serialised with its own namespace declarations, so it can
 * be copied into any multistatus as it is, and who set it: properties count against a per-user cap and a total
 * limit (lib/webdav/dead_prop_usage.ts). Properties follow their resource on COPY (counted for the copier) and
 * MOVE (unchanged) and go with it on DELETE.
 */
import { HttpError } from "../errors.ts";
import { utf8Length } from "../names.ts";
import { keys } from "../storage/keys.ts";
import {
  applyUsage,
  propRoom,
  type PropValue,
  readPropEpoch,
  storedProp,
  UsageDelta,
  xmlOf,
} from "./dead_prop_usage.ts";

/** Most dead properties per resource, and the largest serialised value. */
export const MAX_PROPS = 256;
export const MAX_PROP_BYTES = 64 * 1024;
/** Commits that lost the epoch to another change and read again, before giving up with 503. */
const MAX_TRIES = 50;
/** Most entries deleted, moved or copied per commit, and their key and value bytes (KV caps an atomic's size). */
const BATCH = 200;
const BATCH_KEY_BYTES = 32 * 1024;
const BATCH_VALUE_BYTES = 400 * 1024;

/** A batch of entries that stays within what one KV atomic takes (each key may be written twice: a move). */
class Batch {
  readonly entries: Deno.KvEntry<PropValue>[] = [];
  #keyBytes = 0;
  #valueBytes = 0;

  /** Adds `e`; false (and not added) when the batch is full and `e` must wait for the next one. */
  add(e: Deno.KvEntry<PropValue>): boolean {
    const keyBytes = 2 * e.key.reduce((n: number, part) => n + utf8Length(String(part)) + 4, 0);
    const valueBytes = utf8Length(xmlOf(e.value)) + 64;
    const fits = this.entries.length < BATCH && this.#keyBytes + keyBytes <= BATCH_KEY_BYTES &&
      this.#valueBytes + valueBytes <= BATCH_VALUE_BYTES;
    if (!fits && this.entries.length) return false;
    this.entries.push(e);
    this.#keyBytes += keyBytes;
    this.#valueBytes += valueBytes;
    return true;
  }
}

/** The Clark name of a property. */
export function clarkName(ns: string, name: string): string {
  return `{${ns}}${name}`;
}

/** The stored properties of one resource: Clark name → entry. */
async function entriesOf(
  kv: Deno.Kv,
  segs: readonly string[],
): Promise<Map<string, Deno.KvEntry<PropValue>>> {
  const out = new Map<string, Deno.KvEntry<PropValue>>();
  try {
    for await (const e of kv.list<PropValue>({ prefix: keys.davPropsPrefix(segs, true) })) {
      out.set(String(e.key[e.key.length - 1]), e);
    }
  } catch (err) {
    // A path too long for a KV key has no properties.
    if (!(err instanceof TypeError)) throw err;
  }
  return out;
}

/** The dead properties of one resource: Clark name → serialised element. */
export async function getDeadProps(kv: Deno.Kv, segs: readonly string[]): Promise<Map<string, string>> {
  return new Map([...await entriesOf(kv, segs)].map(([clark, e]) => [clark, xmlOf(e.value)]));
}

/** The dead properties of the direct children of a folder: child name → properties (one KV scan). */
export async function getChildDeadProps(
  kv: Deno.Kv,
  segs: readonly string[],
): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  const depth = segs.length + 2;
  try {
    for await (const e of kv.list<PropValue>({ prefix: keys.davPropsPrefix(segs) })) {
      // ["webdav", "props", ...segs, child, true, prop]
      if (e.key.length !== depth + 3 || e.key[depth + 1] !== true) continue;
      const child = String(e.key[depth]);
      let m = out.get(child);
      if (!m) out.set(child, m = new Map());
      m.set(String(e.key[depth + 2]), xmlOf(e.value));
    }
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
  }
  return out;
}

/** One change of a PROPPATCH: set (with its serialised element) or remove. */
export interface PropChange {
  clark: string;
  value: string | null;
}

async function commitOrRetry(op: Deno.AtomicOperation): Promise<boolean> {
  try {
    return (await op.commit()).ok;
  } catch (err) {
    if (err instanceof TypeError) {
      throw new HttpError(507, "property_key_too_long", undefined, { cause: err });
    }
    throw err;
  }
}

/**
 * Applies a PROPPATCH's changes atomically (all or nothing), set by `userId`: 507 past MAX_PROPS on the
 * resource, past the user's cap or the server's limit (a replaced or removed property gives its bytes back to
 * whoever set it).
 */
export async function patchDeadProps(
  kv: Deno.Kv,
  segs: readonly string[],
  changes: readonly PropChange[],
  options: { userId: number },
): Promise<void> {
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    const epoch = await readPropEpoch(kv);
    const current = await entriesOf(kv, segs);
    const final = new Map<string, string | null>();
    for (const c of changes) final.set(c.clark, c.value);
    const names = new Set(current.keys());
    for (const [clark, value] of final) value === null ? names.delete(clark) : names.add(clark);
    if (names.size > MAX_PROPS) throw new HttpError(507, "too_many_properties");
    const op = kv.atomic();
    const delta = new UsageDelta();
    for (const [clark, value] of final) {
      const old = current.get(clark);
      delta.credit(old?.value);
      if (value === null) {
        if (old) op.delete(old.key);
        continue;
      }
      const prop = storedProp(clark, value, options.userId);
      delta.charge(prop);
      op.set(keys.davProp(segs, clark), prop);
    }
    await applyUsage(kv, op, epoch, delta, { limited: options.userId });
    if (await commitOrRetry(op)) return;
  }
  throw new HttpError(503, "properties_contended");
}

async function* entriesBelow(kv: Deno.Kv, segs: readonly string[]): AsyncGenerator<Deno.KvEntry<PropValue>> {
  try {
    yield* kv.list<PropValue>({ prefix: keys.davPropsPrefix(segs) });
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
  }
}

/** The first batch of entries below `segs` (those of the resource itself, and of everything below it). */
async function batchBelow(kv: Deno.Kv, segs: readonly string[]): Promise<Deno.KvEntry<PropValue>[]> {
  const batch = new Batch();
  for await (const e of entriesBelow(kv, segs)) if (!batch.add(e)) break;
  return batch.entries;
}

/**
 * Runs `step` on batches of the properties below `segs` until none is left: each commit removes what it was
 * given, so the next batch is listed from the start. `step` returns false when its commit lost the epoch.
 */
async function drainBelow(
  kv: Deno.Kv,
  segs: readonly string[],
  step: (batch: Deno.KvEntry<PropValue>[], epoch: Deno.KvEntryMaybe<number>) => Promise<boolean>,
): Promise<void> {
  let misses = 0;
  for (;;) {
    const epoch = await readPropEpoch(kv);
    const batch = await batchBelow(kv, segs);
    if (!batch.length) return;
    if (await step(batch, epoch)) misses = 0;
    else if (++misses >= MAX_TRIES) throw new HttpError(503, "properties_contended");
  }
}

/** Deletes the properties of a resource and everything below it, giving their bytes back. */
export async function deleteDeadPropsBelow(kv: Deno.Kv, segs: readonly string[]): Promise<void> {
  await drainBelow(kv, segs, async (batch, epoch) => {
    const op = kv.atomic();
    const delta = new UsageDelta();
    for (const e of batch) {
      op.delete(e.key);
      delta.credit(e.value);
    }
    await applyUsage(kv, op, epoch, delta);
    return (await op.commit()).ok;
  });
}

/** The key of `e` (below `from`) at `to` (op.set throws a TypeError when it is too long for a key). */
function movedKey(e: Deno.KvEntry<PropValue>, from: readonly string[], to: readonly string[]): Deno.KvKey {
  return [...keys.davPropsPrefix(to), ...e.key.slice(from.length + 2)];
}

/**
 * Moves the properties of a resource and everything below it to another path: who set them and the counters
 * stay. Properties too long for a key at the new place are lost (their bytes given back), like xattrs on a file
 * system without room.
 */
export async function moveDeadProps(
  kv: Deno.Kv,
  from: readonly string[],
  to: readonly string[],
): Promise<void> {
  await drainBelow(kv, from, async (batch, epoch) => {
    const op = kv.atomic();
    const delta = new UsageDelta();
    for (const e of batch) {
      op.delete(e.key);
      try {
        op.set(movedKey(e, from, to), e.value);
      } catch {
        delta.credit(e.value);
      }
    }
    await applyUsage(kv, op, epoch, delta);
    return (await op.commit().catch(() => ({ ok: false }))).ok;
  });
}

/**
 * Copies the properties of a resource (and, with `subtree`, of everything below it) to another path, set by
 * `userId`: the copies count for the copier. What would pass the copier's cap or the server's limit is not
 * copied, nor what is too long for a key at the new place.
 */
export async function copyDeadProps(
  kv: Deno.Kv,
  from: readonly string[],
  to: readonly string[],
  options: { subtree: boolean; userId: number },
): Promise<void> {
  const prefixLength = from.length + 2;
  let batch = new Batch();
  const flush = async (): Promise<boolean> => {
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const epoch = await readPropEpoch(kv);
      let room = await propRoom(kv, options.userId);
      const op = kv.atomic();
      const delta = new UsageDelta();
      let full = false;
      for (const e of batch.entries) {
        const clark = String(e.key[e.key.length - 1]);
        const prop = storedProp(clark, xmlOf(e.value), options.userId);
        if (prop.bytes > room) {
          full = true;
          break;
        }
        const key = movedKey(e, from, to);
        const existing = await kv.get<PropValue>(key).catch(() => null);
        try {
          op.set(key, prop);
        } catch {
          continue;
        }
        delta.credit(existing?.value);
        delta.charge(prop);
        room -= prop.bytes;
      }
      await applyUsage(kv, op, epoch, delta);
      if ((await op.commit().catch(() => ({ ok: false }))).ok) return !full;
    }
    throw new HttpError(503, "properties_contended");
  };
  for await (const e of entriesBelow(kv, from)) {
    if (!options.subtree && e.key[prefixLength] !== true) continue;
    if (batch.add(e)) continue;
    if (!await flush()) return;
    batch = new Batch();
    batch.add(e);
  }
  if (batch.entries.length) await flush();
}
