/**
 * Young-generation collections on demand, for loops that make much short-lived garbage: archive output,
 * directory scans, the search index's walk. With V8's default young generation (semi-spaces up to 16 MiB),
 * garbage waits there until it fills, and dead objects that hold native memory (ArrayBuffers, directory
 * entries read from the OS) keep it until then. A young-generation collection every so often frees it for a
 * fraction of a millisecond (little survives), without the global `--max-semi-space-size=1` that made every
 * request pay for more collections. It needs V8's `gc()` (`--v8-flags=--expose-gc`, which `deno task start`
 * sets); without it a collector does nothing.
 */

type MinorGc = (options: { type: "minor" }) => void;

/**
 * A counter of work (bytes, entries: any unit) that asks V8 for a young-generation collection each time
 * `every` units have been counted since the last one; a no-op when `gc()` is not exposed.
 */
export function youngCollector(every: number): (work: number) => void {
  if (!(every > 0)) throw new RangeError(`youngCollector: "every" must be positive, got ${every}`);
  const gc = (globalThis as { gc?: MinorGc }).gc;
  if (typeof gc !== "function") return () => {};
  let since = 0;
  return (work) => {
    since += work;
    if (since < every) return;
    since = 0;
    gc({ type: "minor" });
  };
}
