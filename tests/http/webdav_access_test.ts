/**
 * WebDAV access control: authentication, the instance and per-user switches, the permission matrix over every
 * method, rules and hidden files (404 in listings, 403 on access), and the traversal set.
 */
import assert from "node:assert/strict";
import { TEST_PASSWORD, type TestApp, testApp } from "../_helpers.ts";
import { users } from "../../lib/storage/mod.ts";
import { basic } from "./_dav.ts";

const NO_PERMS = {};
const ALL = "all" as const;

async function davApp(): Promise<TestApp> {
  const t = await testApp({
    config: { webdav: true, loginRateLimit: 3 },
    users: [
      {
        username: "bob",
        perm: ALL,
        scope: "/users/bob",
        rules: [{ regex: false, allow: false, path: "/secret", regexp: null }],
      },
      { username: "reader", perm: NO_PERMS, scope: "/users/bob" },
      { username: "dots", perm: ALL, scope: "/users/bob", hideDotfiles: true },
    ],
  });
  const bob = `${t.root}/users/bob`;
  await Deno.mkdir(`${bob}/secret`, { recursive: true });
  await Deno.mkdir(`${bob}/dir`, { recursive: true });
  await Deno.writeTextFile(`${bob}/a.txt`, "hello");
  await Deno.writeTextFile(`${bob}/secret/s.txt`, "secret");
  await Deno.writeTextFile(`${bob}/.hidden`, "dot");
  await Deno.mkdir(`${t.root}/users/alice`, { recursive: true });
  await Deno.writeTextFile(`${t.root}/users/alice/alice.txt`, "alice's");
  await Deno.symlink(`${t.root}/users/alice/alice.txt`, `${bob}/escape.txt`);
  return t;
}

function dav(
  t: TestApp,
  method: string,
  path: string,
  init: { as?: string; headers?: Record<string, string>; body?: string } = {},
) {
  const headers = new Headers(init.headers);
  if (init.as) headers.set("Authorization", basic(init.as, TEST_PASSWORD));
  return t.app.request(`http://localhost${path}`, { method, headers, body: init.body });
}

async function listing(t: TestApp, as: string, path = "/dav/"): Promise<string> {
  const res = await dav(t, "PROPFIND", path, { as, headers: { Depth: "1" } });
  assert.equal(res.status, 207);
  return await res.text();
}

Deno.test("WebDAV needs credentials: 401 with a Basic challenge naming the instance", async () => {
  const t = await davApp();
  try {
    for (const method of ["OPTIONS", "PROPFIND", "GET", "PUT", "DELETE", "MKCOL", "LOCK"]) {
      const res = await dav(t, method, "/dav/a.txt");
      assert.equal(res.status, 401, method);
      assert.match(res.headers.get("WWW-Authenticate") ?? "", /^Basic realm="[^"]*"/);
      await res.body?.cancel();
    }
    const wrong = await t.app.request("http://localhost/dav/", {
      method: "PROPFIND",
      headers: { Authorization: basic("bob", "nope"), Depth: "0" },
    });
    assert.equal(wrong.status, 401);
    const garbage = await dav(t, "PROPFIND", "/dav/", { headers: { Authorization: "Basic %%%" } });
    assert.equal(garbage.status, 401);
  } finally {
    await t.close();
  }
});

Deno.test("wrong WebDAV passwords count on the login throttle's counters", async () => {
  const t = await davApp();
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.app.request("http://localhost/dav/", {
        method: "PROPFIND",
        headers: { Authorization: basic("bob", `wrong${i}`), Depth: "0" },
      });
      statuses.push(res.status);
      await res.body?.cancel();
    }
    assert.deepEqual(statuses, [401, 401, 401, 429]);
    const login = await t.app.request("/api/login", {
      method: "POST",
      body: JSON.stringify({ username: "bob", password: TEST_PASSWORD }),
    });
    assert.equal(login.status, 429);
  } finally {
    await t.close();
  }
});

Deno.test("WebDAV is off without --webdav, and a user whose webdav switch is off gets 403", async () => {
  const off = await testApp();
  try {
    const res = await off.app.request("/dav/", {
      method: "PROPFIND",
      headers: { Authorization: basic("admin", TEST_PASSWORD) },
    });
    assert.equal(res.status, 404);
  } finally {
    await off.close();
  }
  const t = await davApp();
  try {
    // The admin switches bob's WebDAV access off through the users API (a security field: re-authenticated).
    const id = t.users.bob.id;
    const put = await t.request(`/api/users/${id}`, {
      as: "admin",
      method: "PUT",
      body: JSON.stringify({
        what: "user",
        which: ["webdav"],
        data: { id, webdav: false },
        current_password: TEST_PASSWORD,
      }),
    });
    assert.equal(put.status, 200, await put.text());
    assert.equal((await users.getUser(t.deps.kv, id)).webdav, false);
    const wire = await (await t.request(`/api/users/${id}`, { as: "admin" })).json();
    assert.equal(wire.webdav, false);
    assert.equal((await dav(t, "PROPFIND", "/dav/", { as: "bob", headers: { Depth: "0" } })).status, 403);
    assert.equal((await dav(t, "PROPFIND", "/dav/", { as: "dots", headers: { Depth: "0" } })).status, 207);
  } finally {
    await t.close();
  }
});

const DEST = { Destination: "http://localhost/dav/copy.txt" };

Deno.test("WebDAV applies the permissions of /api/resources to every method", async () => {
  const t = await davApp();
  try {
    const cases: [string, string, Record<string, string>, string | undefined][] = [
      ["GET", "/dav/a.txt", {}, undefined],
      ["PUT", "/dav/new.txt", {}, "x"],
      ["PUT", "/dav/a.txt", {}, "x"],
      ["MKCOL", "/dav/newdir", {}, undefined],
      ["DELETE", "/dav/a.txt", {}, undefined],
      ["COPY", "/dav/a.txt", DEST, undefined],
      ["MOVE", "/dav/a.txt", DEST, undefined],
      [
        "PROPPATCH",
        "/dav/a.txt",
        {},
        '<?xml version="1.0"?><propertyupdate xmlns="DAV:"><set><prop><x xmlns="urn:t">1</x></prop></set></propertyupdate>',
      ],
      [
        "LOCK",
        "/dav/a.txt",
        {},
        '<?xml version="1.0"?><lockinfo xmlns="DAV:"><lockscope><exclusive/></lockscope><locktype><write/></locktype></lockinfo>',
      ],
    ];
    for (const [method, path, headers, body] of cases) {
      const res = await dav(t, method, path, { as: "reader", headers, body });
      assert.equal(res.status, 403, `${method} ${path} without permission`);
      await res.body?.cancel();
    }
    assert.equal(await Deno.readTextFile(`${t.root}/users/bob/a.txt`), "hello");
    assert.equal((await dav(t, "PROPFIND", "/dav/", { as: "reader", headers: { Depth: "1" } })).status, 207);
    const expected = [201, 204, 201, 204, 201, 201, 207, 200];
    const order: [string, string, Record<string, string>, string | undefined][] = [
      ["PUT", "/dav/new.txt", {}, "x"],
      ["PUT", "/dav/new.txt", {}, "y"],
      ["MKCOL", "/dav/newdir", {}, undefined],
      ["DELETE", "/dav/newdir", {}, undefined],
      ["COPY", "/dav/a.txt", DEST, undefined],
      ["MOVE", "/dav/copy.txt", { Destination: "/dav/moved.txt" }, undefined],
      cases[7],
      cases[8],
    ];
    for (const [i, [method, path, headers, body]] of order.entries()) {
      const res = await dav(t, method, path, { as: "bob", headers, body });
      assert.equal(res.status, expected[i], `${method} ${path} with permission`);
      await res.body?.cancel();
    }
    assert.equal(await Deno.readTextFile(`${t.root}/users/bob/moved.txt`), "hello");
    const get = await dav(t, "GET", "/dav/new.txt", { as: "bob", headers: { Range: "bytes=0-0" } });
    assert.equal(get.status, 206);
    assert.equal(await get.text(), "y");
  } finally {
    await t.close();
  }
});

Deno.test("WebDAV hides rule-denied, hidden and escaping entries in listings and refuses them on access", async () => {
  const t = await davApp();
  try {
    const bobList = await listing(t, "bob");
    assert.match(bobList, /\/dav\/a\.txt</);
    assert.doesNotMatch(bobList, /secret/);
    assert.doesNotMatch(bobList, /escape\.txt/);
    assert.match(bobList, /\.hidden/);
    const dotsList = await listing(t, "dots");
    assert.doesNotMatch(dotsList, /\.hidden/);
    assert.match(dotsList, /secret/);
    for (
      const [as, method, path] of [
        ["bob", "PROPFIND", "/dav/secret/"],
        ["bob", "GET", "/dav/secret/s.txt"],
        ["bob", "PUT", "/dav/secret/new.txt"],
        ["bob", "GET", "/dav/escape.txt"],
        ["dots", "GET", "/dav/.hidden"],
        ["dots", "PROPFIND", "/dav/.hidden"],
      ]
    ) {
      const res = await dav(t, method, path, {
        as,
        headers: { Depth: "0" },
        body: method === "PUT" ? "x" : undefined,
      });
      assert.equal(res.status, 403, `${as} ${method} ${path}`);
      await res.body?.cancel();
    }
  } finally {
    await t.close();
  }
});

Deno.test("WebDAV paths and Destination headers cannot leave the scope", async () => {
  const t = await davApp();
  try {
    for (
      const path of [
        "/dav/%2e%2e/alice/alice.txt",
        "/dav/..%2falice%2falice.txt",
        "/dav/%2e%2e%2f%2e%2e%2fusers/alice/alice.txt",
        "/dav/..\\alice\\alice.txt",
      ]
    ) {
      const res = await dav(t, "GET", path, { as: "bob" });
      // A `..` the URL parser resolves leaves /dav/ altogether (redirect to the UI); the others stay in the scope.
      assert.ok([302, 403, 404].includes(res.status), `${path}: ${res.status}`);
      assert.notEqual(await res.text(), "alice's");
    }
    const table: [string, number[]][] = [
      // The URL parser resolves these dot segments: the target is outside the endpoint.
      ["http://localhost/dav/../../alice/stolen.txt", [502]],
      ["http://localhost/dav/%2e%2e/%2e%2e/alice/stolen2.txt", [502]],
      // Decoded `..` segments are clamped at the scope root: bob has no "alice" folder (409).
      ["/dav/..%2f..%2falice%2fstolen3.txt", [409]],
      ["http://evil.example/dav/x.txt", [502]],
      ["http://localhost/api/resources/x.txt", [502]],
      ["http://localhost/dav/secret/x.txt", [403]],
      ["http://localhost/dav/%zz", [400]],
      ["http://localhost/dav/escape.txt", [403, 412]],
    ];
    for (const [dest, statuses] of table) {
      const res = await dav(t, "COPY", "/dav/a.txt", {
        as: "bob",
        headers: { Destination: dest, Overwrite: "F" },
      });
      assert.ok(statuses.includes(res.status), `${dest}: ${res.status}`);
      await res.body?.cancel();
    }
    // Whatever was created stayed inside bob's scope; alice's folder is untouched.
    const alice = [];
    for await (const e of Deno.readDir(`${t.root}/users/alice`)) alice.push(e.name);
    assert.deepEqual(alice, ["alice.txt"]);
    assert.equal(await Deno.readTextFile(`${t.root}/users/alice/alice.txt`), "alice's");
  } finally {
    await t.close();
  }
});

Deno.test("Settings › Profile shows the WebDAV card only when the instance serves WebDAV", async () => {
  for (const on of [true, false]) {
    const t = await testApp({ config: { webdav: on } });
    try {
      const res = await t.app.request("/settings/profile", { headers: { Cookie: `auth=${t.tokens.admin}` } });
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.equal(html.includes('data-testid="webdav-card"'), on);
      if (on) assert.match(html, /\/dav\//);
    } finally {
      await t.close();
    }
  }
});
