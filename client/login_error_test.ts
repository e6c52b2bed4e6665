import assert from "node:assert/strict";
import { ApiError } from "./api/errors.ts";
import { loginFailureMessage, shouldTryGuest } from "./login_error.ts";

const t = (key: string) => `[${key}]`;

Deno.test("loginFailureMessage(): every failure is wrong credentials except throttling and a lost connection", () => {
  const cases: [unknown, "login" | "signup", RegExp][] = [
    [new ApiError(403, "403 Forbidden"), "login", /^\[login\.wrongCredentials\]$/],
    [new ApiError(401, "401 Unauthorized"), "login", /^\[login\.wrongCredentials\]$/],
    [new ApiError(500, "500 Internal Server Error"), "login", /^\[login\.wrongCredentials\]$/],
    [new ApiError(400, "400 Bad Request"), "login", /^\[login\.wrongCredentials\]$/],
    [new ApiError(409, "409 Conflict"), "login", /^\[login\.wrongCredentials\]$/],
    [new TypeError("not an ApiError"), "login", /^\[login\.wrongCredentials\]$/],
    [new ApiError(500, "500"), "signup", /^\[login\.wrongCredentials\]$/],
    [new ApiError(409, "409 Conflict"), "signup", /^\[login\.usernameTaken\]$/],
  ];
  for (const [err, mode, want] of cases) {
    assert.match(loginFailureMessage(err, mode, t), want, `${mode} ${String(err)}`);
  }
  // Throttling and a lost connection keep their own texts (through the error catalogue), in both modes.
  for (const mode of ["login", "signup"] as const) {
    const throttled = loginFailureMessage(new ApiError(429, "429 Too Many Requests"), mode, t);
    const offline = loginFailureMessage(new ApiError(0, "000 No connection"), mode, t);
    assert.doesNotMatch(throttled, /wrongCredentials/);
    assert.doesNotMatch(offline, /wrongCredentials/);
    assert.notEqual(throttled, offline);
  }
});

Deno.test("shouldTryGuest(): guest mode logs in unless the visitor comes from the file pages", () => {
  const origin = "https://fb.example";
  const cases: [boolean, string, string, boolean][] = [
    [false, "", "", false],
    [true, "", "", true],
    [true, "not a url", "", true],
    [true, "https://elsewhere.example/files/", "", true],
    [true, "https://fb.example/files/", "", false],
    [true, "https://fb.example/files", "", false],
    [true, "https://fb.example/files/a/b.txt", "", false],
    [true, "https://fb.example/filesystem", "", true],
    [true, "https://fb.example/settings/profile", "", true],
    [true, "https://fb.example/share/abc", "", true],
    [true, "https://fb.example/app/files/x", "/app", false],
    [true, "https://fb.example/files/x", "/app", true],
  ];
  for (const [enabled, referrer, base, want] of cases) {
    assert.equal(shouldTryGuest(enabled, referrer, origin, base), want, `${enabled} ${referrer} ${base}`);
  }
});
