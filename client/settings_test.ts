import assert from "node:assert/strict";
import { splitLines, splitWords, togglePermission, withRuleText } from "./settings.ts";
import type { Permissions } from "../lib/types.ts";

const NONE: Permissions = {
  admin: false,
  execute: false,
  create: false,
  rename: false,
  modify: false,
  delete: false,
  share: false,
  download: false,
};

Deno.test("splitWords()/splitLines() drop empties", () => {
  assert.deepEqual(splitWords("  bash  -c "), ["bash", "-c"]);
  assert.deepEqual(splitWords(""), []);
  assert.deepEqual(splitLines("a\n\n b \n"), ["a", "b"]);
});

Deno.test("togglePermission(): admin ticks all; others change alone", () => {
  assert.ok(Object.values(togglePermission(NONE, "admin", true)).every(Boolean));
  assert.deepEqual(togglePermission(NONE, "share", true), { ...NONE, share: true });
  const all = togglePermission(NONE, "admin", true);
  assert.deepEqual(togglePermission(all, "admin", false), { ...all, admin: false });
});

Deno.test("withRuleText() fills the path or the pattern by kind", () => {
  const base = { allow: true, regex: false, path: "", regexp: { raw: "" } };
  assert.deepEqual(withRuleText(base, "/a"), { ...base, path: "/a" });
  assert.deepEqual(withRuleText({ ...base, regex: true }, "\\.x$"), {
    ...base,
    regex: true,
    regexp: { raw: "\\.x$" },
  });
});
