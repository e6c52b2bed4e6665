import assert from "node:assert/strict";
import { UnauthorizedError } from "../errors.ts";
import type { StoredUser } from "../types.ts";
import { isCanonicalToken, signToken, verifyToken } from "./tokens.ts";

const NOW = 1_800_000_000_000;

async function freshToken(secret: Uint8Array): Promise<string> {
  const user = { id: 7, username: "u", perm: {}, commands: [] } as unknown as StoredUser;
  return await signToken(user, { secret, sessionId: "s-1", lifetimeSeconds: 3600, nowMs: NOW });
}

/** The same signature bits with other unused low bits in its last character. */
function respelled(token: string): string[] {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const i = alphabet.indexOf(token[token.length - 1]);
  // An HS256 signature is 43 characters: the last one carries 4 bits and 2 unused ones.
  return [1, 2, 3].map((d) => token.slice(0, -1) + alphabet[(i & ~3) | ((i + d) & 3)]);
}

Deno.test("verifyToken() refuses a token with anything after it, or another spelling of its signature", async () => {
  const secret = crypto.getRandomValues(new Uint8Array(64));
  const token = await freshToken(secret);
  assert.equal((await verifyToken(token, { secret, nowMs: NOW })).userId, 7);
  // jose alone accepts the first four and the respellings.
  const misspelled = [
    `${token}=`,
    `${token} `,
    `${token}\t`,
    `${token}\n`,
    `${token}==`,
    `${token}.`,
    ` ${token}`,
    token.replace(".", "=."),
    ...respelled(token),
  ];
  for (const value of misspelled) {
    assert.equal(isCanonicalToken(value), false, JSON.stringify(value));
    await assert.rejects(
      verifyToken(value, { secret, nowMs: NOW }),
      UnauthorizedError,
      JSON.stringify(value),
    );
  }
  // Well-formed, but then the signature no longer matches.
  for (const value of [`${token}x`, `${token}AAAA`]) {
    await assert.rejects(verifyToken(value, { secret, nowMs: NOW }), UnauthorizedError, value);
  }
  assert.equal(isCanonicalToken(token), true);
});

Deno.test("isCanonicalToken() takes three canonical base64url parts and nothing else", () => {
  const table: [string, boolean][] = [
    ["", false],
    ["a.b.c", false],
    ["aa.bb.cc", false],
    ["QQ.QQ.QQ", true],
    ["QR.QQ.QQ", false],
    ["QUE.QUE.QUE", true],
    ["QUF.QUE.QUE", false],
    ["QUFB.QUFB.QUFB", true],
    ["QUFBQ.QUFB.QUFB", false],
    ["QQ.QQ", false],
    ["QQ.QQ.QQ.QQ", false],
    ["QQ..QQ", false],
    ["Q+.QQ.QQ", false],
    ["Q/.QQ.QQ", false],
  ];
  for (const [value, want] of table) assert.equal(isCanonicalToken(value), want, value);
});
