import assert from "node:assert/strict";
import { ChangeLog, MAX_PATCH_NAMES } from "./listing_changes.ts";

function event(paths: string[], flag: Deno.FsEvent["flag"] | null = null): Deno.FsEvent {
  // Deno reports `flag: null` when there is none.
  return { kind: "modify", paths, flag } as unknown as Deno.FsEvent;
}

Deno.test("ChangeLog names the entries an event changed, and refuses events it cannot patch", () => {
  const cases: [string, string, Deno.FsEvent, string[] | null][] = [
    ["a file", "/r/d", event(["/r/d/a.txt"]), ["a.txt"]],
    ["a move inside", "/r/d", event(["/r/d/a", "/r/d/b"]), ["a", "b"]],
    ["a move to another watched folder", "/r/d", event(["/r/d/a", "/r/e/a"]), ["a"]],
    ["the root folder's entry", "/", event(["/etc"]), ["etc"]],
    ["odd but valid names", "/r/d", event(["/r/d/ x\\y\n", "/r/d/..."]), [" x\\y\n", "..."]],
    ["a dot-dot name", "/r/d", event(["/r/d/a", "/r/d/.."]), null],
    ["a dot name", "/r/d", event(["/r/d/."]), null],
    ["the folder itself", "/r/d", event(["/r/d"]), null],
    ["the root folder itself", "/", event(["/"]), null],
    ["the folder and an entry", "/r/d", event(["/r/d/a", "/r/d"]), null],
    ["no paths", "/r/d", event([]), null],
    ["a rescan flag", "/r/d", event(["/r/d/a"], "rescan"), null],
    ["an entry of a sub-folder", "/r/d", event(["/r/d/sub/a"]), null],
    ["another folder only", "/r/d", event(["/r/e/a"]), null],
    ["a sibling with the same prefix", "/r/d", event(["/r/dd/a"]), null],
    ["a trailing slash", "/r/d", event(["/r/d/"]), null],
    ["a name that was not UTF-8", "/r/d", event(["/r/d/a\uFFFDb"]), null],
  ];
  for (const [label, real, e, want] of cases) {
    const log = new ChangeLog(real);
    log.record(event([`${real === "/" ? "" : real}/before`]));
    const mark = log.events;
    log.record(e);
    assert.equal(log.events, mark + 1, label);
    assert.deepEqual(log.since(mark, 100)?.values().toArray().sort() ?? null, want?.sort() ?? null, label);
    // Names recorded before `mark` are not reported since then, but are since the start.
    if (want !== null) assert.ok(log.since(0, 100)!.has("before"), label);
  }
});

Deno.test("ChangeLog bounds its names, forgets what a newer read covers, and ends with its watcher", () => {
  const log = new ChangeLog("/d");
  for (let i = 0; i < 10; i++) log.record(event([`/d/f${i}`]));
  assert.equal(log.since(0, 100)!.size, 10);
  assert.equal(log.since(0, 9), null, "more than max names");
  assert.deepEqual([...log.since(7, 100)!].sort(), ["f7", "f8", "f9"]);
  log.record(event(["/d/f1"]));
  log.forget(10);
  assert.deepEqual([...log.since(0, 100)!], ["f1"], "only names of events after the forgotten ones");
  log.end();
  assert.equal(log.since(11, 100), null, "the watcher ended");
  assert.deepEqual([...log.since(12, 100)!], []);
  const big = new ChangeLog("/d");
  for (let i = 0; i <= MAX_PATCH_NAMES; i++) big.record(event([`/d/f${i}`]));
  assert.equal(big.since(0, Infinity), null, "too many names to keep");
  big.record(event(["/d/again"]));
  assert.deepEqual([...big.since(big.events - 1, Infinity)!], ["again"]);
});
