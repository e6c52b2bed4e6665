import assert from "node:assert/strict";
import { parseToken } from "./session.ts";

function b64url(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

Deno.test("parseToken() reads the user and the expiry from the payload (UTF-8 names too)", () => {
  const user = { id: 7, username: "zoë", locale: "fr", perm: { admin: false } };
  const token = `${b64url({ alg: "HS256" })}.${b64url({ user, exp: 1900000000 })}.signature`;
  const claims = parseToken(token);
  assert.deepEqual(claims.user, user);
  assert.equal(claims.exp, 1900000000);
  assert.equal(parseToken(`a.${b64url({ user })}.c`).exp, 0, "no exp reads as 0");
});

Deno.test("parseToken() calls anything without three parts a malformed token", () => {
  for (const token of ["", "abc", "a.b", "a.b.c.d", "...."]) {
    assert.throws(() => parseToken(token), { message: "token malformed" }, JSON.stringify(token));
  }
});
