/**
 * What WebDAV dead properties take in KV, per user and in all: every stored property records who set it and its
 * bytes, and two kinds of counters (`keys.davPropUsage(userId)`, `keys.davPropTotal()`) add them up. Counters
 * change in the same atomic as the properties, which also checks and bumps one epoch key: property changes are
 * serialised across instances, so a change computed from what it read is exact when it commits.
 */
import { HttpError } from "../errors.ts";
import { utf8Length } from "../names.ts";
import { keys } from "../storage/keys.ts";

/** Most bytes of dead properties one user may have set (names and serialised values). */
export const MAX_USER_PROP_BYTES = 64 * 1024 * 1024;
/** Most bytes of dead properties on the server, all users together. */
export const MAX_TOTAL_PROP_BYTES = 1024 * 1024 * 1024;

/** A stored dead property: the serialised element, who set it, and the bytes it counts. */
export interface StoredProp {
  xml: string;
  userId: number;
  bytes: number;
}

/** A property as KV holds it: a bare string was set before owners were kept and counts for nobody. */
export type PropValue = StoredProp | string;

/** The serialised element of a stored property. */
export function xmlOf(value: PropValue): string {
  return typeof value === "string" ? value : value.xml;
}

/** A property set by `userId` now. */
export function storedProp(clark: string, xml: string, userId: number): StoredProp {
  return { xml, userId, bytes: utf8Length(clark) + utf8Length(xml) };
}

/** How a batch of property changes moves the counters. */
export class UsageDelta {
  readonly byUser = new Map<number, number>();
  total = 0;

  /** `value` is gone (removed, replaced, deleted with its resource). */
  credit(value: PropValue | null | undefined): void {
    if (!value || typeof value === "string") return;
    this.byUser.set(value.userId, (this.byUser.get(value.userId) ?? 0) - value.bytes);
    this.total -= value.bytes;
  }

  /** `value` is stored. */
  charge(value: StoredProp): void {
    this.byUser.set(value.userId, (this.byUser.get(value.userId) ?? 0) + value.bytes);
    this.total += value.bytes;
  }
}

/** The epoch entry every property change checks and bumps (read it before reading what the change is about). */
export function readPropEpoch(kv: Deno.Kv): Promise<Deno.KvEntryMaybe<number>> {
  return kv.get<number>(keys.davPropEpoch());
}

/** Bytes of dead properties a user has set (0 when none). */
export async function propUsage(kv: Deno.Kv, userId: number): Promise<number> {
  return (await kv.get<number>(keys.davPropUsage(userId))).value ?? 0;
}

/**
 * What `userId` (and the server) may still add: the room left under both caps.
 */
export async function propRoom(kv: Deno.Kv, userId: number): Promise<number> {
  const [mine, all] = await kv.getMany<number[]>([keys.davPropUsage(userId), keys.davPropTotal()]);
  return Math.max(
    0,
    Math.min(MAX_USER_PROP_BYTES - (mine.value ?? 0), MAX_TOTAL_PROP_BYTES - (all.value ?? 0)),
  );
}

/**
 * Adds to `op` the epoch check and bump and the counters' new values. With `limited`, throws 507 when that user's
 * bytes, or the server's, would grow past their cap. A counter never goes below 0, and a user without one (a
 * deleted user, whose properties count for nobody) gets none.
 */
export async function applyUsage(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  epoch: Deno.KvEntryMaybe<number>,
  delta: UsageDelta,
  options: { limited?: number } = {},
): Promise<void> {
  op.check(epoch).set(keys.davPropEpoch(), (epoch.value ?? 0) + 1);
  const users = [...delta.byUser].filter(([, bytes]) => bytes !== 0);
  for (let i = 0; i < users.length; i += 10) {
    const part = users.slice(i, i + 10);
    const current = await kv.getMany<number[]>(part.map(([id]) => keys.davPropUsage(id)));
    part.forEach(([id, bytes], j) => {
      const before = current[j].value;
      const after = Math.max(0, (before ?? 0) + bytes);
      if (bytes > 0 && id === options.limited && after > MAX_USER_PROP_BYTES) {
        throw new HttpError(
          507,
          "property_quota",
          `Dead properties are limited to ${MAX_USER_PROP_BYTES} bytes per user`,
        );
      }
      if (before === null && bytes < 0) return;
      op.set(keys.davPropUsage(id), after);
    });
  }
  if (delta.total === 0) return;
  const total = (await kv.get<number>(keys.davPropTotal())).value ?? 0;
  const after = Math.max(0, total + delta.total);
  if (delta.total > 0 && options.limited !== undefined && after > MAX_TOTAL_PROP_BYTES) {
    throw new HttpError(507, "property_limit", "The server holds as many dead properties as it takes");
  }
  op.set(keys.davPropTotal(), after);
}
