import assert from "node:assert/strict";
import { type AuditAction, classify } from "./actions.ts";

function run(method: string, url: string, headers: Record<string, string> = {}, status = 200) {
  const u = new URL(url, "http://h");
  return classify({ method, path: u.pathname, query: u.searchParams, headers: new Headers(headers), status });
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
