import assert from "node:assert/strict";
import { compileRuleRegex, defaultSettings, normalizeSettings, validateRules } from "./settings.ts";
import { saveSettingsFromWire } from "./settings_wire.ts";

Deno.test("normalizeSettings() applies filebrowser's read defaults", () => {
  const s = normalizeSettings({
    tus: { chunkSize: 0, retryCount: 0 },
    minimumPasswordLength: 0,
    userHomeBasePath: "",
  });
  assert.deepEqual(s.tus, { chunkSize: 10485760, retryCount: 5 });
  assert.equal(s.minimumPasswordLength, 12);
  assert.equal(s.userHomeBasePath, "/users");
  assert.equal(s.defaults.viewMode, "mosaic");
  assert.equal(Object.keys(s.commands).length, 12);
});

Deno.test("compileRuleRegex() accepts RE2-style leading flags", () => {
  assert.ok(compileRuleRegex("(?i)^/Secret\\.txt$").test("/secret.TXT"));
  assert.ok(!compileRuleRegex("^/Secret\\.txt$").test("/secret.TXT"));
});

Deno.test("validateRules() names the broken rule", () => {
  assert.throws(
    () => validateRules([{ regex: true, allow: false, path: "", regexp: { raw: "[" } }], "global rule"),
    /global rule 1/,
  );
});

Deno.test("validateRules() refuses what RE2 cannot compile: backreferences, lookarounds", () => {
  const ok = { regex: true, allow: false, path: "", regexp: { raw: "(?i)\\.txt$" } };
  for (const raw of ["(a)\\1", "^/(?=x)", "^/(?!x)", "(?<=a)b", "(?<!a)b"]) {
    const bad = { regex: true, allow: false, path: "", regexp: { raw } };
    assert.throws(() => validateRules([ok, bad], "user rule"), (err: Error) => {
      assert.match(err.message, /user rule 2/);
      assert.ok(err.message.includes(raw), err.message);
      return true;
    });
  }
  validateRules([ok]);
});

Deno.test("saveSettingsFromWire() keeps the current authMethod and fills hook lists", () => {
  const next = saveSettingsFromWire(
    { authMethod: "noauth", commands: { after_save: ["echo hi"] } },
    defaultSettings(),
  );
  assert.equal(next.authMethod, "json");
  assert.deepEqual(next.commands.after_save, ["echo hi"]);
  assert.deepEqual(next.commands.before_upload, []);
});
