import assert from "node:assert/strict";
import { CommandHistory, HISTORY_MAX } from "./history.ts";

function memory(init: Record<string, string> = {}) {
  const data = new Map(Object.entries(init));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
  };
}

Deno.test("history: up walks back, down walks forward and restores the draft", () => {
  const h = new CommandHistory(memory(), "k");
  h.push("ls");
  h.push("pwd");
  assert.equal(h.previous("ec"), "pwd");
  assert.equal(h.previous("pwd"), "ls");
  assert.equal(h.previous("ls"), null);
  assert.equal(h.next(), "pwd");
  assert.equal(h.next(), "ec");
  assert.equal(h.next(), null);
});

Deno.test("history: rewind ends browsing without recording anything", () => {
  const h = new CommandHistory(memory(), "k");
  h.push("ls");
  h.push("pwd");
  assert.equal(h.previous(""), "pwd");
  assert.equal(h.previous(""), "ls");
  h.rewind();
  assert.equal(h.next(), null);
  assert.equal(h.previous(""), "pwd");
  assert.deepEqual(h.entries, ["ls", "pwd"]);
});

Deno.test("history: blank lines and immediate repeats are not recorded; commands are trimmed", () => {
  const h = new CommandHistory(memory(), "k");
  for (const line of ["ls", "  ", "ls", " ls ", "pwd", "ls"]) h.push(line);
  assert.deepEqual(h.entries, ["ls", "pwd", "ls"]);
});

Deno.test("history: kept in storage per key and capped", () => {
  const store = memory();
  const a = new CommandHistory(store, "a");
  for (let i = 0; i < HISTORY_MAX + 5; i++) a.push(`echo ${i}`);
  const again = new CommandHistory(store, "a");
  assert.equal(again.entries.length, HISTORY_MAX);
  assert.equal(again.entries[0], "echo 5");
  assert.equal(again.previous(""), `echo ${HISTORY_MAX + 4}`);
  assert.deepEqual(new CommandHistory(store, "b").entries, []);
});

Deno.test("history: corrupt or hostile storage content starts empty or keeps only strings", () => {
  const table: [string, string[]][] = [
    ["not json", []],
    ['{"a":1}', []],
    ["null", []],
    ['["ls", 5, null, {"x":1}, "pwd"]', ["ls", "pwd"]],
  ];
  for (const [raw, want] of table) {
    assert.deepEqual(new CommandHistory(memory({ k: raw }), "k").entries, want, raw);
  }
});

Deno.test("history: storage that throws still gives a working history", () => {
  const broken = {
    getItem(): string | null {
      throw new Error("denied");
    },
    setItem() {
      throw new Error("full");
    },
  };
  const h = new CommandHistory(broken, "k");
  h.push("ls");
  assert.equal(h.previous(""), "ls");
  assert.deepEqual(new CommandHistory(null, "k").entries, []);
});
