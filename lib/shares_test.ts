import assert from "node:assert/strict";
import {
  expiryOf,
  isValidCustomLink,
  newShareHash,
  newShareToken,
  splitSharePath,
  toWireShare,
} from "./shares.ts";

Deno.test("newShareHash / newShareToken: URL-safe, 8 and 128 characters", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const h = newShareHash();
    assert.match(h, /^[A-Za-z0-9_-]{8}$/);
    seen.add(h);
  }
  assert.equal(seen.size, 200);
  assert.match(newShareToken(), /^[A-Za-z0-9_-]{128}$/);
});

Deno.test("expiryOf: empty is permanent, units, unknown unit is hours, junk is refused", () => {
  const now = 1_000_000_000_000;
  assert.equal(expiryOf("", "days", now), 0);
  assert.equal(expiryOf(undefined, undefined, now), 0);
  assert.equal(expiryOf("10", "seconds", now), 1_000_000_010);
  assert.equal(expiryOf("2", "minutes", now), 1_000_000_120);
  assert.equal(expiryOf("1", "days", now), 1_000_086_400);
  assert.equal(expiryOf("1", "fortnights", now), 1_000_003_600);
  assert.throws(() => expiryOf("1.5", "hours", now), /invalid expires/);
  assert.throws(() => expiryOf("abc", "hours", now), /invalid expires/);
  assert.throws(() => expiryOf("2147483648", "days", now), /invalid expires/);
  assert.equal(expiryOf("2147483647", "seconds", now), 1_000_000_000 + 2147483647);
  assert.equal(expiryOf("-5", "seconds", now), 999_999_995, "negative: an already expired link");
});

Deno.test("isValidCustomLink: a word character first, URL-safe characters only", () => {
  for (const ok of ["report", "report.pdf", "a-b_c~d", "_x", "9"]) assert.ok(isValidCustomLink(ok), ok);
  for (const bad of ["", "-", "..", ".x", "a/b", "a b", "é", "a?b", "a%2f", "x".repeat(129)]) {
    assert.ok(!isValidCustomLink(bad), bad);
  }
});

Deno.test("splitSharePath and toWireShare", () => {
  assert.deepEqual(splitSharePath("abc"), { hash: "abc", sub: "/" });
  assert.deepEqual(splitSharePath("abc/"), { hash: "abc", sub: "/" });
  assert.deepEqual(splitSharePath("abc/x/y/"), { hash: "abc", sub: "/x/y/" });
  const wire = toWireShare({
    hash: "h",
    path: "/p",
    userID: 2,
    expire: 0,
    passwordHash: "$2a$x",
    token: "t",
  });
  assert.deepEqual(wire, { hash: "h", path: "/p", userID: 2, expire: 0, hasPassword: true });
  const dated = toWireShare({
    hash: "h",
    path: "/p",
    userID: 2,
    expire: 0,
    passwordHash: "",
    token: "",
    created: 7,
  });
  assert.deepEqual(dated, { hash: "h", path: "/p", userID: 2, expire: 0, hasPassword: false, created: 7 });
});
