/**
 * WebDAV dead properties count against a per-user cap and a total limit (docs/api.md#webdav): PROPPATCH past
 * them is 507, DELETE gives the bytes back, COPY counts for the copier, MOVE changes nothing.
 */
import assert from "node:assert/strict";
import { TEST_PASSWORD, type TestApp, testApp } from "../_helpers.ts";
import { keys } from "../../lib/storage/keys.ts";
import { MAX_TOTAL_PROP_BYTES, MAX_USER_PROP_BYTES, propUsage } from "../../lib/webdav/dead_prop_usage.ts";
import { basic } from "./_dav.ts";

const WRITER = { create: true, rename: true, modify: true, delete: true, download: true };

function proppatch(value: string): string {
  return `<?xml version="1.0"?><propertyupdate xmlns="DAV:" xmlns:t="urn:t"><set><prop>` +
    `<t:note>${value}</t:note></prop></set></propertyupdate>`;
}

async function dav(
  t: TestApp,
  as: string,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; text: string }> {
  const headers = new Headers(init.headers);
  headers.set("Authorization", basic(as, TEST_PASSWORD));
  const res = await t.app.request(`http://localhost/dav${path}`, { method, headers, body: init.body });
  return { status: res.status, text: await res.text() };
}

Deno.test("WebDAV dead properties: a user's cap and the server's limit hold, and bytes come back", async () => {
  const t = await testApp({
    config: { webdav: true, loginRateLimit: 1000 },
    users: [{ username: "alice", perm: WRITER }, { username: "bob", perm: WRITER }],
  });
  try {
    for (const name of ["a.txt", "b.txt"]) await Deno.writeTextFile(`${t.root}/${name}`, "x");
    const alice = t.users.alice.id, bob = t.users.bob.id;
    let r = await dav(t, "alice", "PROPPATCH", "/a.txt", { body: proppatch("hello") });
    assert.equal(r.status, 207, r.text);
    assert.match(r.text, /200 OK/);
    const one = await propUsage(t.deps.kv, alice);
    assert.ok(one > 0);
    // Near her cap, Alice's next property is refused and nothing of the request is stored.
    await t.deps.kv.set(keys.davPropUsage(alice), MAX_USER_PROP_BYTES - 10);
    r = await dav(t, "alice", "PROPPATCH", "/b.txt", { body: proppatch("too much") });
    assert.equal(r.status, 507);
    r = await dav(t, "alice", "PROPFIND", "/b.txt", { headers: { Depth: "0" } });
    assert.doesNotMatch(r.text, /too much/);
    // Bob is not held back; a COPY counts for the one who copies.
    r = await dav(t, "bob", "COPY", "/a.txt", { headers: { Destination: "http://localhost/dav/c.txt" } });
    assert.equal(r.status, 201);
    assert.equal(await propUsage(t.deps.kv, bob), one);
    // DELETE gives Alice's bytes back.
    await t.deps.kv.set(keys.davPropUsage(alice), one);
    r = await dav(t, "alice", "DELETE", "/a.txt");
    assert.equal(r.status, 204);
    assert.equal(await propUsage(t.deps.kv, alice), 0);
    // At the server's limit nobody adds more.
    await t.deps.kv.set(keys.davPropTotal(), MAX_TOTAL_PROP_BYTES);
    r = await dav(t, "bob", "PROPPATCH", "/b.txt", { body: proppatch("one more") });
    assert.equal(r.status, 507);
  } finally {
    await t.close();
  }
});
