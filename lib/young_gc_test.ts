import assert from "node:assert/strict";
import { withGcStub, withoutGc } from "./_young_gc_testing.ts";
import { youngCollector } from "./young_gc.ts";

Deno.test("youngCollector() asks for one young-generation collection each time `every` units are counted", async () => {
  await withGcStub((calls) => {
    const collect = youngCollector(100);
    collect(99);
    assert.equal(calls.length, 0);
    collect(1);
    assert.deepEqual(calls, [{ type: "minor" }]);
    collect(50);
    collect(49);
    assert.equal(calls.length, 1);
    collect(1);
    assert.equal(calls.length, 2);
    // A large amount at once counts as one collection: the counter starts again from zero.
    collect(1000);
    assert.equal(calls.length, 3);
    collect(99);
    assert.equal(calls.length, 3);
  });
});

Deno.test("youngCollector() counters are independent of each other", async () => {
  await withGcStub((calls) => {
    const a = youngCollector(10);
    const b = youngCollector(10);
    a(6);
    b(6);
    assert.equal(calls.length, 0);
    a(4);
    assert.equal(calls.length, 1);
  });
});

Deno.test("youngCollector() does nothing when gc() is not exposed", async () => {
  await withoutGc(() => {
    // Throws if it tried to call the missing gc().
    const collect = youngCollector(1);
    for (let i = 0; i < 10; i++) collect(10);
  });
  // A gc() exposed after the collector was made is not used by it either: the choice is made once.
  await withoutGc(async () => {
    const collect = youngCollector(1);
    await withGcStub((calls) => {
      collect(10);
      assert.equal(calls.length, 0);
    });
  });
});

Deno.test("youngCollector() refuses a period that is not positive", () => {
  assert.throws(() => youngCollector(0), RangeError);
  assert.throws(() => youngCollector(-1), RangeError);
  assert.throws(() => youngCollector(NaN), RangeError);
});
