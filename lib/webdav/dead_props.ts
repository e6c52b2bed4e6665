/**
 * WebDAV dead properties in KV, keyed by the resource's real path and the property's Clark name
 * (`{ns}name`). Each value is the property element serialised with its own namespace declarations, so it can
 * be copied into any multistatus as it is. Properties follow their resource on COPY and MOVE and go with it
 * on DELETE.
 */
import { HttpError } from "../errors.ts";
import { keys } from "../storage/keys.ts";

/** Most dead properties per resource, and the largest serialised value. */
export const MAX_PROPS = 256;
export const MAX_PROP_BYTES = 64 * 1024;

/** The Clark name of a property. */
export function clarkName(ns: string, name: string): string {
  return `{${ns}}${name}`;
}

/** The dead properties of one resource: Clark name → serialised element. */
export async function getDeadProps(kv: Deno.Kv, segs: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  try {
    for await (const e of kv.list<string>({ prefix: keys.davPropsPrefix(segs, true) })) {
      out.set(String(e.key[e.key.length - 1]), e.value);
    }
  } catch (err) {
    // A path too long for a KV key has no properties.
    if (!(err instanceof TypeError)) throw err;
  }
  return out;
}

/** The dead properties of the direct children of a folder: child name → properties (one KV scan). */
export async function getChildDeadProps(
  kv: Deno.Kv,
  segs: readonly string[],
): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  const depth = segs.length + 2;
  try {
    for await (const e of kv.list<string>({ prefix: keys.davPropsPrefix(segs) })) {
      // ["webdav", "props", ...segs, child, true, prop]
      if (e.key.length !== depth + 3 || e.key[depth + 1] !== true) continue;
      const child = String(e.key[depth]);
      let m = out.get(child);
      if (!m) out.set(child, m = new Map());
      m.set(String(e.key[depth + 2]), e.value);
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

/** Applies a PROPPATCH's changes atomically (all or nothing). */
export async function patchDeadProps(
  kv: Deno.Kv,
  segs: readonly string[],
  changes: readonly PropChange[],
): Promise<void> {
  const current = await getDeadProps(kv, segs);
  const op = kv.atomic();
  for (const c of changes) {
    if (c.value === null) {
      current.delete(c.clark);
      op.delete(keys.davProp(segs, c.clark));
    } else {
      current.set(c.clark, c.value);
      op.set(keys.davProp(segs, c.clark), c.value);
    }
  }
  if (current.size > MAX_PROPS) throw new HttpError(507, "too_many_properties");
  try {
    await op.commit();
  } catch (err) {
    if (err instanceof TypeError) {
      throw new HttpError(507, "property_key_too_long", undefined, { cause: err });
    }
    throw err;
  }
}

async function* entriesBelow(kv: Deno.Kv, segs: readonly string[]): AsyncGenerator<Deno.KvEntry<string>> {
  try {
    yield* kv.list<string>({ prefix: keys.davPropsPrefix(segs) });
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
  }
}

/** Deletes the properties of a resource and everything below it. */
export async function deleteDeadPropsBelow(kv: Deno.Kv, segs: readonly string[]): Promise<void> {
  let op = kv.atomic();
  let n = 0;
  for await (const e of entriesBelow(kv, segs)) {
    op.delete(e.key);
    if (++n % 500 === 0) {
      await op.commit();
      op = kv.atomic();
    }
  }
  if (n % 500 !== 0) await op.commit();
}

/** Copies the properties of a resource (and, with `subtree`, of everything below it) to another path. */
export async function copyDeadProps(
  kv: Deno.Kv,
  from: readonly string[],
  to: readonly string[],
  options: { subtree: boolean },
): Promise<void> {
  const prefixLength = from.length + 2;
  let op = kv.atomic();
  let n = 0;
  for await (const e of entriesBelow(kv, from)) {
    if (!options.subtree && e.key[prefixLength] !== true) continue;
    const key = [...keys.davPropsPrefix(to), ...e.key.slice(prefixLength)];
    try {
      op.set(key, e.value);
    } catch {
      continue;
    }
    if (++n % 500 === 0) {
      await op.commit().catch(() => {});
      op = kv.atomic();
    }
  }
  // Properties too long for a key at the new place are lost, like xattrs on a file system without room.
  if (n % 500 !== 0) await op.commit().catch(() => {});
}
