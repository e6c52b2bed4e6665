import assert from "node:assert/strict";
import { HttpError } from "../errors.ts";
import { keys } from "../storage/keys.ts";
import {
  copyDeadProps,
  deleteDeadPropsBelow,
  getChildDeadProps,
  getDeadProps,
  moveDeadProps,
  patchDeadProps,
} from "./dead_props.ts";
import { MAX_TOTAL_PROP_BYTES, MAX_USER_PROP_BYTES, propUsage, type PropValue } from "./dead_prop_usage.ts";

const xml = (name: string, text: string) => `<${name} xmlns="urn:t">${text}</${name}>`;
const set = (name: string, text: string) => ({ clark: `{urn:t}${name}`, value: xml(name, text) });
const remove = (name: string) => ({ clark: `{urn:t}${name}`, value: null });
/** What a property counts: its Clark name and its element, in UTF-8 bytes. */
const bytesOf = (name: string, text: string) => `{urn:t}${name}`.length + xml(name, text).length;

async function withKv(fn: (kv: Deno.Kv) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  try {
    await fn(kv);
  } finally {
    kv.close();
  }
}

/** Every user's bytes, summed from the stored properties themselves. */
async function recount(kv: Deno.Kv): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for await (const e of kv.list<PropValue>({ prefix: ["webdav", "props"] })) {
    if (typeof e.value === "string") continue;
    out.set(e.value.userId, (out.get(e.value.userId) ?? 0) + e.value.bytes);
  }
  return out;
}

async function total(kv: Deno.Kv): Promise<number> {
  return (await kv.get<number>(keys.davPropTotal())).value ?? 0;
}

Deno.test("patchDeadProps() counts a property for whoever set it, until it is replaced or removed", async () => {
  await withKv(async (kv) => {
    await patchDeadProps(kv, ["r", "a"], [set("color", "red"), set("size", "big")], { userId: 1 });
    assert.equal(await propUsage(kv, 1), bytesOf("color", "red") + bytesOf("size", "big"));
    // Another user replaces one: its bytes move to them.
    await patchDeadProps(kv, ["r", "a"], [set("color", "green")], { userId: 2 });
    assert.equal(await propUsage(kv, 1), bytesOf("size", "big"));
    assert.equal(await propUsage(kv, 2), bytesOf("color", "green"));
    assert.deepEqual(
      await getDeadProps(kv, ["r", "a"]),
      new Map([
        ["{urn:t}color", xml("color", "green")],
        ["{urn:t}size", xml("size", "big")],
      ]),
    );
    // Set and removed in one request: nothing stays, nothing counts.
    await patchDeadProps(kv, ["r", "a"], [set("tmp", "x"), remove("tmp"), remove("size")], { userId: 2 });
    assert.equal(await propUsage(kv, 1), 0);
    assert.equal(await total(kv), bytesOf("color", "green"));
    assert.deepEqual(await recount(kv), new Map([[2, bytesOf("color", "green")]]));
  });
});

Deno.test("patchDeadProps() refuses with 507 past the user's cap and past the server's limit", async () => {
  await withKv(async (kv) => {
    const big = "x".repeat(1000);
    await kv.set(keys.davPropUsage(1), MAX_USER_PROP_BYTES - 500);
    await kv.set(keys.davPropTotal(), MAX_USER_PROP_BYTES - 500);
    await assert.rejects(
      patchDeadProps(kv, ["f"], [set("a", big)], { userId: 1 }),
      (e: HttpError) => e.status === 507 && e.code === "property_quota",
    );
    assert.deepEqual(await getDeadProps(kv, ["f"]), new Map());
    // What fits still goes in; another user is not held back; removing gives room back.
    await patchDeadProps(kv, ["f"], [set("a", "small")], { userId: 1 });
    await patchDeadProps(kv, ["f"], [set("b", big)], { userId: 2 });
    await patchDeadProps(kv, ["f"], [remove("a")], { userId: 1 });
    assert.equal(await propUsage(kv, 1), MAX_USER_PROP_BYTES - 500);
    await kv.set(keys.davPropTotal(), MAX_TOTAL_PROP_BYTES - 10);
    await assert.rejects(
      patchDeadProps(kv, ["g"], [set("c", "too much")], { userId: 3 }),
      (e: HttpError) => e.status === 507 && e.code === "property_limit",
    );
    // A removal always goes through, also at the limit.
    await patchDeadProps(kv, ["f"], [remove("b")], { userId: 3 });
    assert.equal(await propUsage(kv, 2), 0);
  });
});

Deno.test("dead properties: DELETE gives bytes back, MOVE keeps them, COPY counts for the copier", async () => {
  await withKv(async (kv) => {
    await patchDeadProps(kv, ["d"], [set("top", "1")], { userId: 1 });
    await patchDeadProps(kv, ["d", "x"], [set("a", "2"), set("b", "3")], { userId: 1 });
    await patchDeadProps(kv, ["d", "x", "y"], [set("c", "4")], { userId: 2 });
    const mine = await propUsage(kv, 1), theirs = await propUsage(kv, 2);
    await moveDeadProps(kv, ["d"], ["e"]);
    assert.deepEqual(await getDeadProps(kv, ["d", "x"]), new Map());
    assert.equal((await getChildDeadProps(kv, ["e"])).get("x")?.size, 2);
    assert.equal(await propUsage(kv, 1), mine);
    assert.equal(await propUsage(kv, 2), theirs);
    await copyDeadProps(kv, ["e"], ["f"], { subtree: true, userId: 3 });
    assert.equal(await propUsage(kv, 3), mine + theirs);
    await copyDeadProps(kv, ["e", "x"], ["g"], { subtree: false, userId: 3 });
    assert.deepEqual([...(await getDeadProps(kv, ["g"])).keys()].sort(), ["{urn:t}a", "{urn:t}b"]);
    await deleteDeadPropsBelow(kv, ["e"]);
    assert.equal(await propUsage(kv, 1), 0);
    assert.equal(await propUsage(kv, 2), 0);
    assert.deepEqual(await recount(kv), new Map([[3, await propUsage(kv, 3)]]));
    assert.equal(await total(kv), await propUsage(kv, 3));
  });
});

Deno.test("copyDeadProps() copies only what fits in the copier's cap", async () => {
  await withKv(async (kv) => {
    await patchDeadProps(kv, ["s"], [set("a", "x".repeat(600)), set("b", "x".repeat(600))], { userId: 1 });
    await kv.set(keys.davPropUsage(2), MAX_USER_PROP_BYTES - 1000);
    await copyDeadProps(kv, ["s"], ["t"], { subtree: true, userId: 2 });
    assert.equal((await getDeadProps(kv, ["t"])).size, 1);
    assert.ok(await propUsage(kv, 2) <= MAX_USER_PROP_BYTES);
  });
});

Deno.test("dead properties: parallel changes keep the counters exact; old string values count for nobody", async () => {
  await withKv(async (kv) => {
    // A property stored before owners were kept.
    await kv.set(keys.davProp(["p"], "{urn:t}old"), xml("old", "legacy"));
    assert.equal((await getDeadProps(kv, ["p"])).get("{urn:t}old"), xml("old", "legacy"));
    await Promise.all(Array.from({ length: 24 }, (_, i) => {
      const user = 1 + (i % 3);
      const name = ["k1", "k2", "k3", "k4"][i % 4];
      return patchDeadProps(kv, ["p"], [i % 5 === 4 ? remove(name) : set(name, "v".repeat(i))], {
        userId: user,
      });
    }));
    await patchDeadProps(kv, ["p"], [set("old", "new")], { userId: 1 });
    const counted = await recount(kv);
    for (const user of [1, 2, 3]) {
      assert.equal(await propUsage(kv, user), counted.get(user) ?? 0, `user ${user}`);
    }
    assert.equal(await total(kv), [...counted.values()].reduce((a, b) => a + b, 0));
    await deleteDeadPropsBelow(kv, ["p"]);
    for (const user of [1, 2, 3]) assert.equal(await propUsage(kv, user), 0);
    assert.equal(await total(kv), 0);
  });
});
