import assert from "node:assert/strict";
import { API_ROUTES, type AuditAction, classify, UNKNOWN_PATH_MAX } from "./actions.ts";

function run(method: string, url: string, headers: Record<string, string> = {}, status = 200, code?: string) {
  const u = new URL(url, "http://h");
  return classify({
    method,
    path: u.pathname,
    query: u.searchParams,
    headers: new Headers(headers),
    status,
    code,
  });
}

Deno.test("classify(): route and method give the action; reads, chunks and logins are not recorded", () => {
  const table: [string, string, AuditAction | null, Record<string, string>?, number?][] = [
    ["GET", "/api/resources/a", null],
    ["POST", "/api/login", null],
    ["POST", "/api/renew", null],
    ["POST", "/api/logout", { action: "logout" }],
    ["POST", "/api/resources/a%20b/", { action: "file.mkdir", path: "/a b/" }],
    ["PATCH", "/api/resources/a?action=rename&destination=%252Fx%252Fa", {
      action: "file.move",
      path: "/a",
      target: "/x/a",
    }],
    ["POST", "/api/tus/big.iso", { action: "file.upload_start", path: "/big.iso", detail: "tus" }],
    ["PATCH", "/api/tus/big.iso", null],
    ["HEAD", "/api/tus/big.iso", null],
    ["GET", "/api/raw/v.mp4", null, {}, 206],
    ["GET", "/api/raw/d?files=a,b", { action: "file.download", path: "/d", detail: "archive" }],
    ["POST", "/api/extract/a.zip?destination=/out", {
      action: "file.extract",
      path: "/a.zip",
      target: "/out",
    }],
    ["DELETE", "/api/trash", { action: "trash.empty" }],
    ["DELETE", "/api/trash/abc", { action: "trash.purge", target: "abc" }],
    ["GET", "/api/public/share/h1/in/x", { action: "share.use", path: "/in/x", target: "h1", detail: "" }],
    ["PUT", "/api/settings", { action: "settings.update" }],
    ["POST", "/api/users/3/twofa", { action: "user.twofa", target: "user:3", detail: "POST" }],
    ["POST", "/api/apppasswords", { action: "api.apppasswords", path: "/", detail: "POST" }],
    ["GET", "/api/search/x", null],
    ["MOVE", "/dav/a.txt", { action: "file.move", path: "/a.txt", target: "/b c.txt", detail: "webdav" }, {
      Destination: "http://h/dav/b%20c.txt",
      Authorization: "Basic eA==",
    }],
    ["PUT", "/dav/a.txt", null, {}, 401],
    ["PROPFIND", "/dav/", null],
    ["GET", "/files/a", null],
    ["POST", "/api/resources/%E0%A4%A", { action: "file.upload", path: "/%E0%A4%A" }],
  ];
  for (const [method, url, want, headers, status] of table) {
    assert.deepEqual(run(method, url, headers, status), want, `${method} ${url}`);
  }
});

Deno.test("classify(): unknown routes are one fixed action with a short path; request text names no action", () => {
  const junk = "x".repeat(5000);
  const table: [string, string, AuditAction | null][] = [
    ["POST", `/api/${junk}`, {
      action: "api.unknown",
      path: `/${"x".repeat(UNKNOWN_PATH_MAX - 1)}`,
      detail: "POST",
    }],
    ["DELETE", "/api/%3Cscript%3E/a", { action: "api.unknown", path: "/<script>/a", detail: "DELETE" }],
    ["GET", `/api/${junk}`, null],
    ["POST", `/api/users/1/${junk}`, {
      action: "api.unknown",
      path: `/users/1/${"x".repeat(UNKNOWN_PATH_MAX - 9)}`,
      detail: "POST",
    }],
    ["DELETE", "/api/users/2/apppasswords/abc", {
      action: "user.apppasswords",
      target: "user:2",
      detail: "DELETE",
    }],
    ["POST", "/api/public/share/h1", { action: "api.unknown", path: "/public/share/h1", detail: "POST" }],
    ["FROBNICATEFROBNICATE", "/api/x", { action: "api.unknown", path: "/x", detail: "FROBNICATEFROBNI" }],
    // Routes that exist keep their own name.
    ["POST", "/api/publish/now", { action: "api.publish", path: "/now", detail: "POST" }],
  ];
  for (const [method, url, want] of table) {
    assert.deepEqual(run(method, url), want, `${method} ${url.slice(0, 40)}`);
  }
  const long = run("DELETE", `/api/users/${"9".repeat(500)}`);
  assert.equal(long?.target, `user:${"9".repeat(32)}`);
});

Deno.test("classify(): drop links record the look, every upload started (refused ones with their code), refused chunks", () => {
  const table: [string, string, number, string | undefined, AuditAction | null][] = [
    ["GET", "/api/public/tus/h1", 200, undefined, {
      action: "share.use",
      path: "/",
      target: "h1",
      detail: "drop",
    }],
    ["GET", "/api/public/tus/h1", 401, "share_password_wrong", {
      action: "share.use",
      path: "/",
      target: "h1",
      detail: "drop",
    }],
    ["POST", "/api/public/tus/h1/a%20b.txt", 201, undefined, {
      action: "share.drop_start",
      path: "/a b.txt",
      target: "h1",
      detail: "",
    }],
    ["POST", "/api/public/tus/h1/a.txt", 401, "share_password_wrong", {
      action: "share.drop_start",
      path: "/a.txt",
      target: "h1",
      detail: "share_password_wrong",
    }],
    ["PATCH", "/api/public/tus/h1/a.txt", 401, "share_password_required", {
      action: "share.drop",
      path: "/a.txt",
      target: "h1",
      detail: "share_password_required",
    }],
    // Chunks, offset probes: not events (the route notes the last chunk).
    ["PATCH", "/api/public/tus/h1/a.txt", 204, undefined, null],
    ["HEAD", "/api/public/tus/h1/a.txt", 200, undefined, null],
    ["GET", "/api/public/tus/h1/a.txt", 200, undefined, null],
  ];
  for (const [method, url, status, code, want] of table) {
    assert.deepEqual(run(method, url, {}, status, code), want, `${method} ${url} ${status}`);
  }
});

Deno.test("API_ROUTES lists exactly the first segments of routes/api", async () => {
  const names = new Set<string>();
  const visit = async (dir: URL) => {
    for await (const e of Deno.readDir(dir)) {
      if (e.name.startsWith("_")) continue;
      // A group folder adds nothing to the URL: its entries are first segments themselves.
      if (e.isDirectory && e.name.startsWith("(")) await visit(new URL(`${e.name}/`, dir));
      else names.add(e.name.replace(/\.tsx?$/, ""));
    }
  };
  await visit(new URL("../../routes/api/", import.meta.url));
  assert.deepEqual([...API_ROUTES].sort(), [...names].sort());
});
