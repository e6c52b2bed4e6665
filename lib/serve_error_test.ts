import assert from "node:assert/strict";
import { onServeError } from "./serve_error.ts";

async function logged(fn: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  // deno-lint-ignore no-console -- the test captures log lines
  const original = [console.error, console.log];
  // deno-lint-ignore no-console -- the test captures log lines
  console.error = console.log = (...args: unknown[]) => lines.push(args.map(String).join(" "));
  try {
    await fn();
  } finally {
    // deno-lint-ignore no-console -- restoring the writers
    [console.error, console.log] = original;
  }
  return lines;
}

Deno.test("onServeError() logs a failed response body once at warn, naming what failed", async () => {
  let res: Response | undefined;
  const lines = await logged(async () => {
    res = onServeError(new Error('Cannot archive "a/b.txt": No such file or directory', { cause: "x" }));
    await res.body?.cancel();
  });
  assert.equal(res?.status, 500);
  assert.equal(lines.length, 1);
  assert.match(lines[0], /WARN {2}response aborted: Cannot archive "a\/b\.txt": No such file/);
});

Deno.test("onServeError() keeps a client that went away out of the warnings", async () => {
  const lines = await logged(async () => {
    await onServeError(new DOMException("gone", "AbortError")).body?.cancel();
  });
  assert.deepEqual(lines, []);
});
