// This module is browser-compatible.
/**
 * Island props on the wire: `stringify` (server) and `parse` (browser) round-trip what JSON cannot: undefined,
 * NaN, ±Infinity, −0, bigint, Date, URL, RegExp, Map, Set, typed arrays, sparse arrays and values reached
 * twice (the same object arrives as the same object). Functions, symbols, class instances and cycles throw a
 * `SerializeError` naming the prop path; nothing is silently dropped.
 *
 * Format: a JSON array: element 0 is the root value, the others are slots. A value is a slot index (≥ 1) or
 * a negative constant (below).
 * A slot holds a string, boolean or finite number as itself; an object as `{ key: index }`; an array as
 * `[index, …]` (all numbers); a special value as `[tag, …]` with a string tag first.
 */

const UNDEFINED = -1;
const NULL = -2;
const NAN = -3;
const POS_INF = -4;
const NEG_INF = -5;
const NEG_ZERO = -6;
const HOLE = -7;

const TYPED = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
} as const;
type TypedName = keyof typeof TYPED;

/** Thrown when a value cannot be serialised; `path` names where (e.g. `props.files[2].onClick`). */
export class SerializeError extends Error {
  /** Where in the value the problem sits. */
  readonly path: string;
  constructor(message: string, path: string) {
    super(message);
    this.name = "SerializeError";
    this.path = path;
  }
}

function toBase64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const bin = atob(text);
  const out = new Uint8Array(new ArrayBuffer(bin.length));
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function keyPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** Serialises `value` to the slot format (see the module comment); `root` names it in error messages. */
export function stringify(value: unknown, root = "value"): string {
  const slots: unknown[] = [0];
  const seen = new Map<object, number>();
  const active = new Set<object>();

  function push(slot: unknown): number {
    slots.push(slot);
    return slots.length - 1;
  }

  function encode(v: unknown, path: string): number {
    switch (typeof v) {
      case "undefined":
        return UNDEFINED;
      case "boolean":
      case "string":
        return push(v);
      case "number":
        if (Number.isNaN(v)) return NAN;
        if (v === Infinity) return POS_INF;
        if (v === -Infinity) return NEG_INF;
        if (Object.is(v, -0)) return NEG_ZERO;
        return push(v);
      case "bigint":
        return push(["BigInt", v.toString()]);
      case "function":
        throw new SerializeError(`${path} is a function, which cannot be serialised`, path);
      case "symbol":
        throw new SerializeError(`${path} is a symbol, which cannot be serialised`, path);
    }
    if (v === null) return NULL;
    const obj = v as object;
    const known = seen.get(obj);
    if (known !== undefined) return known;
    if (active.has(obj)) throw new SerializeError(`${path} refers back to itself (a cycle)`, path);
    active.add(obj);
    // Reserve the slot first, so children come after their parent and a repeated reference finds it.
    const index = push(null);
    slots[index] = encodeObject(obj, path);
    seen.set(obj, index);
    active.delete(obj);
    return index;
  }

  function encodeObject(obj: object, path: string): unknown {
    if (obj instanceof Date) {
      const t = obj.getTime();
      return ["Date", Number.isNaN(t) ? null : t];
    }
    if (obj instanceof URL) return ["URL", obj.href];
    if (obj instanceof RegExp) return ["RegExp", obj.source, obj.flags];
    if (obj instanceof Map) {
      const out: unknown[] = ["Map"];
      let i = 0;
      for (const [k, val] of obj) {
        out.push(encode(k, `${path}.keys[${i}]`), encode(val, `${path}.get(${i})`));
        i++;
      }
      return out;
    }
    if (obj instanceof Set) {
      const out: unknown[] = ["Set"];
      let i = 0;
      for (const val of obj) out.push(encode(val, `${path}.values[${i++}]`));
      return out;
    }
    if (ArrayBuffer.isView(obj)) {
      const view: ArrayBufferView = obj;
      const ctor: unknown = view.constructor;
      const name = view.constructor.name as TypedName;
      if (!Object.hasOwn(TYPED, name) || ctor !== TYPED[name]) {
        throw new SerializeError(`${path} is a ${view.constructor.name}, which cannot be serialised`, path);
      }
      return [name, toBase64(new Uint8Array(view.buffer, view.byteOffset, view.byteLength))];
    }
    if (Array.isArray(obj)) {
      const out: number[] = [];
      for (let i = 0; i < obj.length; i++) out.push(i in obj ? encode(obj[i], `${path}[${i}]`) : HOLE);
      return out;
    }
    const proto = Object.getPrototypeOf(obj);
    if (proto !== Object.prototype && proto !== null) {
      const kind = proto?.constructor?.name || "class instance";
      throw new SerializeError(`${path} is a ${kind}, which cannot be serialised (use plain objects)`, path);
    }
    if (Object.getOwnPropertySymbols(obj).length > 0) {
      throw new SerializeError(`${path} has symbol keys, which cannot be serialised`, path);
    }
    const out: Record<string, number> = {};
    for (const [k, val] of Object.entries(obj)) {
      // `__proto__` as an own key must stay data, not become a prototype, on both sides.
      Object.defineProperty(out, k, {
        value: encode(val, keyPath(path, k)),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }

  slots[0] = encode(value, root);
  return JSON.stringify(slots);
}

/** Parses what `stringify` wrote. Throws on malformed input (never returns a partial value). */
export function parse(text: string): unknown {
  const slots = JSON.parse(text);
  if (!Array.isArray(slots)) throw new SyntaxError("Serialised value: not an array of slots");
  const done = new Map<number, unknown>();
  const busy = new Set<number>();

  function decode(i: unknown): unknown {
    if (typeof i !== "number" || !Number.isInteger(i)) {
      throw new SyntaxError(`Serialised value: bad index ${i}`);
    }
    if (i < 0) {
      switch (i) {
        case UNDEFINED:
          return undefined;
        case NULL:
          return null;
        case NAN:
          return NaN;
        case POS_INF:
          return Infinity;
        case NEG_INF:
          return -Infinity;
        case NEG_ZERO:
          return -0;
      }
      throw new SyntaxError(`Serialised value: bad constant ${i}`);
    }
    if (done.has(i)) return done.get(i);
    if (i === 0 || i >= slots.length || busy.has(i)) {
      throw new SyntaxError(`Serialised value: bad reference ${i}`);
    }
    busy.add(i);
    const v = decodeSlot(slots[i]);
    busy.delete(i);
    done.set(i, v);
    return v;
  }

  function decodeSlot(slot: unknown): unknown {
    if (slot === null || typeof slot !== "object") return slot;
    if (!Array.isArray(slot)) {
      const out: Record<string, unknown> = {};
      for (const [k, idx] of Object.entries(slot)) {
        Object.defineProperty(out, k, {
          value: decode(idx),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    if (typeof slot[0] !== "string") {
      const out: unknown[] = new Array(slot.length);
      slot.forEach((idx, n) => {
        if (idx !== HOLE) out[n] = decode(idx);
      });
      return out;
    }
    const [tag, ...rest] = slot as [string, ...unknown[]];
    switch (tag) {
      case "BigInt":
        return BigInt(rest[0] as string);
      case "Date":
        return new Date(rest[0] === null ? NaN : rest[0] as number);
      case "URL":
        return new URL(rest[0] as string);
      case "RegExp":
        return new RegExp(rest[0] as string, rest[1] as string);
      case "Map": {
        const m = new Map();
        for (let n = 0; n < rest.length; n += 2) m.set(decode(rest[n]), decode(rest[n + 1]));
        return m;
      }
      case "Set":
        return new Set(rest.map(decode));
    }
    if (Object.hasOwn(TYPED, tag)) {
      const bytes = fromBase64(rest[0] as string);
      const Ctor = TYPED[tag as TypedName];
      return new Ctor(bytes.buffer, 0, bytes.byteLength / Ctor.BYTES_PER_ELEMENT);
    }
    throw new SyntaxError(`Serialised value: unknown tag ${JSON.stringify(tag)}`);
  }

  return decode(slots[0]);
}

/** Makes JSON text safe inside `<script type="application/json">`: no `</script>`, no raw U+2028/9. */
export function escapeForScript(json: string): string {
  return json.replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}
