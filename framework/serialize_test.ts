import assert from "node:assert/strict";
import { escapeForScript, parse, SerializeError, stringify } from "./serialize.ts";
import { IslandPropsError, serializeIslandProps } from "./island.tsx";

const roundTrip = (v: unknown) => parse(stringify(v));

Deno.test("stringify()/parse() round-trip values JSON loses", () => {
  const cases: [string, unknown][] = [
    ["undefined", undefined],
    ["null", null],
    ["NaN", NaN],
    ["Infinity", Infinity],
    ["-Infinity", -Infinity],
    ["-0", -0],
    ["a number", 1.5],
    ["a string", "a\u2028b</script>"],
    ["a bigint", 12345678901234567890n],
    ["a negative bigint", -5n],
    ["a Date", new Date("2024-05-06T07:08:09.010Z")],
    ["an invalid Date", new Date(NaN)],
    ["a URL", new URL("https://example.com/a?b=c#d")],
    ["a RegExp", /a+b/gi],
    ["a Map", new Map<unknown, unknown>([["a", 1], [2, { b: undefined }], [new Date(0), new Set([1])]])],
    ["a Set", new Set(["x", 1, undefined, null])],
    ["a Uint8Array", new Uint8Array([0, 1, 254, 255])],
    ["an Int16Array", new Int16Array([-32768, 0, 32767])],
    ["a Float64Array", new Float64Array([NaN, -0, 1e300])],
    ["a BigInt64Array", new BigInt64Array([-1n, 2n ** 62n])],
    ["an empty Uint8Array", new Uint8Array(0)],
    // deno-lint-ignore no-sparse-arrays -- holes must survive
    ["a sparse array", [1, , 3]],
    ["an object with undefined", { a: undefined, b: [undefined, NaN] }],
    ["nested", { a: { b: { c: [new Map([["k", [new URL("http://x/")]]])] } } }],
  ];
  for (const [name, value] of cases) assert.deepStrictEqual(roundTrip(value), value, name);
});

Deno.test("a null-prototype object comes back as a plain object with the same keys", () => {
  assert.deepEqual(roundTrip(Object.assign(Object.create(null), { x: 1 })), { x: 1 });
});

Deno.test("stringify() keeps -0 and undefined object keys distinct from 0 and a missing key", () => {
  assert.ok(Object.is(roundTrip(-0), -0));
  const out = roundTrip({ a: undefined }) as Record<string, unknown>;
  assert.ok("a" in out);
});

Deno.test("a typed array that is a view into a larger buffer keeps only its own bytes", () => {
  const buf = new Uint8Array([9, 9, 1, 2, 3, 9]);
  const view = new Uint8Array(buf.buffer, 2, 3);
  assert.deepStrictEqual(roundTrip(view), new Uint8Array([1, 2, 3]));
});

Deno.test("repeated references come back as the same object", () => {
  const shared = { n: 1 };
  const date = new Date(5);
  const out = roundTrip({ a: shared, b: [shared, date], c: new Map([[shared, date]]) }) as {
    a: object;
    b: [object, Date];
    c: Map<object, Date>;
  };
  assert.equal(out.b[0], out.a);
  assert.equal(out.c.get(out.a), out.b[1]);
});

Deno.test("__proto__ as a key stays data and pollutes nothing", () => {
  const evil = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}');
  const out = roundTrip(evil) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
  assert.deepEqual(Object.keys(out), ["__proto__", "x"]);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("stringify() refuses what it cannot carry, naming the path", () => {
  class Thing {
    x = 1;
  }
  const cyclic: Record<string, unknown> = { a: {} };
  (cyclic.a as Record<string, unknown>).back = cyclic;
  const cyclicArray: unknown[] = [];
  cyclicArray.push({ list: cyclicArray });
  const cases: [string, unknown, string, RegExp][] = [
    ["a function", { user: { onSave: () => {} } }, "props.user.onSave", /function/],
    ["a symbol", { list: [1, Symbol("s")] }, "props.list[1]", /symbol/],
    ["a class instance", { t: new Thing() }, "props.t", /Thing/],
    ["a cycle through an object", { root: cyclic }, "props.root.a.back", /cycle/],
    ["a cycle through an array", cyclicArray, "props[0].list", /cycle/],
    [
      "a cycle through a Map",
      (() => {
        const m = new Map();
        m.set("self", m);
        return { m };
      })(),
      "props.m.get(0)",
      /cycle/,
    ],
    ["a function in a Set", { s: new Set([() => 1]) }, "props.s.values[0]", /function/],
    ["a symbol key", { o: { [Symbol("k")]: 1 } }, "props.o", /symbol keys/],
    ["an odd key", { "a-b": () => 1 }, 'props["a-b"]', /function/],
    ["a DataView", { d: new DataView(new ArrayBuffer(2)) }, "props.d", /DataView/],
    ["a Promise", { p: Promise.resolve(1) }, "props.p", /Promise/],
  ];
  for (const [name, value, path, re] of cases) {
    assert.throws(() => stringify(value, "props"), (err: unknown) => {
      assert.ok(err instanceof SerializeError, name);
      assert.equal(err.path, path, name);
      assert.match(err.message, re, name);
      return true;
    });
  }
});

Deno.test("serializeIslandProps() names the island and the prop path", () => {
  assert.throws(
    () => serializeIslandProps("Counter", { onClick: () => {} }),
    (err: unknown) =>
      err instanceof IslandPropsError && err.message.includes('Island "Counter"') &&
      err.message.includes("props.onClick"),
  );
});

Deno.test("the output cannot close the script tag or break on U+2028/9", () => {
  const text = serializeIslandProps("X", {
    a: "</script><script>alert(1)</script>",
    b: "\u2028\u2029",
    c: "<!--",
  });
  assert.ok(!text.includes("<") && !text.includes("\u2028") && !text.includes("\u2029"));
  assert.deepEqual(parse(text), { a: "</script><script>alert(1)</script>", b: "\u2028\u2029", c: "<!--" });
  assert.equal(escapeForScript('"</script>"'), '"\\u003c/script>"');
});

Deno.test("parse() rejects malformed input instead of returning part of it", () => {
  for (
    const text of ["{}", "[1]", "[5, 1]", '[1, ["Nope"]]', "[1, [1]]", "[-99]", '[1, {"a": 2}, {"b": 1}]']
  ) {
    assert.throws(() => parse(text), SyntaxError, text);
  }
});
