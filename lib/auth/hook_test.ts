import assert from "node:assert/strict";
import { defaultSettings } from "../settings.ts";
import { userFromDefaults } from "../users.ts";
import { applyHookFields, parseHookOutput } from "./hook.ts";

Deno.test("parseHookOutput() reads key=value lines and ignores everything else", () => {
  const a = parseHookOutput([
    "hook.action=auth\r",
    "  user.scope = /x = y  ",
    "user.perm.share=true",
    "user.password=ignored",
    "garbage",
    "=nothing",
    "user.commands=ls  cat",
  ]);
  assert.equal(a.action, "auth");
  assert.deepEqual([...a.fields], [
    ["user.scope", "/x = y"],
    ["user.perm.share", "true"],
    ["user.commands", "ls  cat"],
  ]);
  assert.equal(parseHookOutput([]).action, "");
});

Deno.test("applyHookFields() sets only the fields given; booleans are exactly true; admin grants all", () => {
  const u = userFromDefaults(defaultSettings(), "x", "");
  const before = structuredClone(u);
  applyHookFields(u, new Map());
  assert.deepEqual(u, before);
  applyHookFields(
    u,
    new Map([
      ["user.scope", "a/../b/"],
      ["user.perm.delete", "TRUE"],
      ["user.perm.share", "true"],
      ["user.hideDotfiles", "true"],
      ["user.sorting.by", "size"],
      ["user.sorting.asc", "true"],
      ["user.commands", " ls  cat "],
    ]),
  );
  assert.equal(u.scope, "/b");
  assert.equal(u.perm.delete, false);
  assert.equal(u.perm.share, true);
  assert.equal(u.hideDotfiles, true);
  assert.deepEqual(u.sorting, { by: "size", asc: true });
  assert.deepEqual(u.commands, ["ls", "cat"]);
  applyHookFields(u, new Map([["user.perm.admin", "true"]]));
  assert.ok(Object.values(u.perm).every((v) => v === true));
});
