import assert from "node:assert/strict";
import { candidateName, CANDIDATES } from "./drop_names.ts";
import { MAX_NAME_BYTES, newNameProblem, utf8Length } from "./names.ts";

Deno.test("candidateName() tries the name, then (n) suffixes that fit 255 bytes, then random names", () => {
  assert.equal(candidateName("notes.txt", 0), "notes.txt");
  assert.equal(candidateName("notes.txt", 1), "notes (1).txt");
  assert.equal(candidateName("notes", 2), "notes (2)");
  assert.equal(candidateName(".env", 1), ".env (1)");
  const long = "é".repeat(125) + ".txt";
  assert.equal(utf8Length(long), 254);
  for (let n = 1; n < CANDIDATES; n++) {
    const name = candidateName(long, n);
    assert.ok(utf8Length(name) <= MAX_NAME_BYTES, name);
    assert.equal(newNameProblem(name), null, name);
    assert.ok(name.endsWith(".txt"), name);
  }
  assert.match(candidateName(long, 7), /^é+ \(7\)\.txt$/);
  assert.match(candidateName("notes.txt", CANDIDATES - 1), /^upload-[\w-]{12}\.txt$/);
  assert.notEqual(candidateName("a", CANDIDATES - 1), candidateName("a", CANDIDATES - 1));
});
