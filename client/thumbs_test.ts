import assert from "node:assert/strict";
import { ATTEMPTS, CACHE_SIZE, THROTTLE_MS, ThumbLoader } from "./thumbs.ts";

/** A fake clock with timers that run when the test advances it. */
function fakeClock() {
  let now = 1_000;
  const timers: { at: number; fn: () => void }[] = [];
  return {
    now: () => now,
    setTimer: (fn: () => void, ms: number) => void timers.push({ at: now + ms, fn }),
    async advance(ms: number) {
      const until = now + ms;
      for (;;) {
        await flush();
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > until) break;
        timers.shift();
        now = next.at;
        next.fn();
        await flush();
      }
      now = until;
    },
  };
}

async function flush() {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

Deno.test("ThumbLoader starts requests at most every THROTTLE_MS, batching what was asked for meanwhile", async () => {
  const clock = fakeClock();
  const started: string[] = [];
  const loader = new ThumbLoader({ ...clock, load: (url) => (started.push(url), Promise.resolve()) });
  const heard: string[] = [];
  loader.request("/a", (s) => heard.push(`a:${s}`));
  await flush();
  assert.deepEqual(started, ["/a"]);
  loader.request("/b", (s) => heard.push(`b:${s}`));
  loader.request("/c", (s) => heard.push(`c:${s}`));
  await flush();
  assert.deepEqual(started, ["/a"], "the next batch waits for the throttle");
  await clock.advance(THROTTLE_MS);
  assert.deepEqual(started, ["/a", "/b", "/c"]);
  assert.deepEqual(heard, ["a:loaded", "b:loaded", "c:loaded"]);
});

Deno.test("ThumbLoader drops a request withdrawn before it started (scrolled past)", async () => {
  const clock = fakeClock();
  const started: string[] = [];
  const loader = new ThumbLoader({ ...clock, load: (url) => (started.push(url), Promise.resolve()) });
  loader.request("/first", () => {});
  const withdraw = loader.request("/passed", () => assert.fail("must not be told"));
  loader.request("/kept", () => {});
  withdraw();
  await clock.advance(THROTTLE_MS);
  assert.deepEqual(started, ["/first", "/kept"]);
});

Deno.test("ThumbLoader tries a failing thumbnail ATTEMPTS times, then reports it failed for good", async () => {
  const clock = fakeClock();
  let calls = 0;
  const loader = new ThumbLoader({ ...clock, load: () => (calls++, Promise.reject(new Error("503"))) });
  const heard: string[] = [];
  loader.request("/x", (s) => heard.push(s));
  await clock.advance(10_000);
  assert.equal(calls, ATTEMPTS);
  assert.deepEqual(heard, ["failed"]);
  assert.equal(loader.hasFailed("/x"), true);
  loader.request("/x", (s) => heard.push(s));
  assert.deepEqual(heard, ["failed", "failed"], "a failed URL answers at once without a new request");
  assert.equal(calls, ATTEMPTS);
});

Deno.test("ThumbLoader succeeds on a later attempt after transient failures", async () => {
  const clock = fakeClock();
  let calls = 0;
  const loader = new ThumbLoader({
    ...clock,
    load: () => ++calls < ATTEMPTS ? Promise.reject(new Error("busy")) : Promise.resolve(),
  });
  const heard: string[] = [];
  loader.request("/y", (s) => heard.push(s));
  await clock.advance(10_000);
  assert.deepEqual(heard, ["loaded"]);
  assert.equal(loader.isLoaded("/y"), true);
});

Deno.test("ThumbLoader remembers the last CACHE_SIZE loaded URLs, least recently used out first", async () => {
  const clock = fakeClock();
  const loader = new ThumbLoader({ ...clock, load: () => Promise.resolve() });
  for (let i = 0; i < CACHE_SIZE; i++) loader.request(`/${i}`, () => {});
  await clock.advance(THROTTLE_MS);
  assert.equal(loader.isLoaded("/0"), true, "touching /0 makes it recent");
  loader.request("/new", () => {});
  await clock.advance(THROTTLE_MS);
  assert.equal(loader.isLoaded("/new"), true);
  assert.equal(loader.isLoaded("/0"), true);
  assert.equal(loader.isLoaded("/1"), false, "the least recently used went");
  let sync = "";
  loader.request("/0", (s) => sync = s);
  assert.equal(sync, "loaded", "a cached URL answers synchronously");
});
