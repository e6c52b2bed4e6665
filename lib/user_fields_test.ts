import assert from "node:assert/strict";
import { HttpError } from "./errors.ts";
import { parseWhich, USER_FIELDS } from "./user_fields.ts";

function status(fn: () => unknown): number {
  try {
    fn();
    return 0;
  } catch (err) {
    return err instanceof HttpError ? err.status : -1;
  }
}

Deno.test('parseWhich() reads [], null and ["all"] in any case as a full replace', () => {
  assert.equal(parseWhich([]), "all");
  assert.equal(parseWhich(undefined), "all");
  assert.equal(parseWhich(["all"]), "all");
  assert.equal(parseWhich(["ALL"]), "all");
});

Deno.test("parseWhich() folds case and counts every field once", () => {
  assert.deepEqual(parseWhich(["Password", "password", "PASSWORD"]), ["password"]);
  assert.deepEqual(parseWhich(["hidedotfiles", "HideDotfiles", "locale"]), ["hideDotfiles", "locale"]);
  assert.deepEqual(parseWhich(["LockPassword"]), ["lockPassword"]);
  assert.deepEqual(parseWhich([...USER_FIELDS]), [...USER_FIELDS]);
});

Deno.test("parseWhich() refuses unknown, non-string, mixed-with-all and over-long lists with 400", () => {
  const bad: unknown[] = [
    ["nonsense"],
    ["passwordHash"],
    ["id"],
    [1],
    [null],
    [{}],
    ["all", "password"],
    ["password", "all"],
    "password",
    { 0: "password" },
    Array(60).fill("password"),
    Array(USER_FIELDS.length + 1).fill("locale"),
  ];
  for (const which of bad) assert.equal(status(() => parseWhich(which)), 400, JSON.stringify(which));
});
