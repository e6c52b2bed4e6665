/** HTTP tests of /api/search answered from the filename index (lib/search/index/). */
import assert from "node:assert/strict";
import { filesFixture } from "../fixtures/fs/tree.ts";
import { issueToken } from "../../lib/auth/mod.ts";
import { users } from "../../lib/storage/mod.ts";
import { TEST_PASSWORD } from "../_helpers.ts";

const put = (id: number, which: string[], data: Record<string, unknown>) => ({
  method: "PUT",
  body: JSON.stringify({ what: "user", which, data: { id, ...data }, current_password: TEST_PASSWORD }),
});

Deno.test("GET /api/search walks and says so while the index builds, then answers from it", async () => {
  // The app always has an index (lib/boot.ts); the fixture does not start it, as main.ts's start step would.
  const f = await filesFixture();
  try {
    // Straight to the app: the helper would reconcile the index first.
    let r = await f.app.request("/api/search/?query=x.txt", { headers: { "X-Auth": f.tokens.u } });
    assert.equal(r.headers.get("X-Search-Index"), "building");
    assert.equal(await r.text(), '{"dir":false,"path":"ab/x.txt"}\n');
    await f.deps.searchIndex.start();
    r = await f.app.request("/api/search/?query=x.txt", { headers: { "X-Auth": f.tokens.u } });
    assert.equal(r.headers.get("X-Search-Index"), "ready");
    assert.equal(await r.text(), '{"dir":false,"path":"ab/x.txt"}\n');
  } finally {
    await f.close();
  }
});

Deno.test("GET /api/search from the index: a denied or hidden name never appears, right after a rule changes", async () => {
  const f = await filesFixture({ searchIndex: true });
  // Straight to the app: no reconciliation before the request, the rules alone must decide. A rule change
  // ends the user's sessions, so each search logs in again.
  const search = async (query: string) => {
    const token = await issueToken(f.deps, await users.getUser(f.deps.kv, f.users.u.id));
    const r = await f.app.request(`/api/search/?query=${encodeURIComponent(query)}`, {
      headers: { "X-Auth": token },
    });
    assert.equal(r.headers.get("X-Search-Index"), "ready");
    return await r.text();
  };
  try {
    // The fixture wrote its tree after the index started.
    await f.deps.searchIndex.refresh();
    const id = f.users.u.id;
    assert.equal(await search("x.txt"), '{"dir":false,"path":"ab/x.txt"}\n');
    let r = await f.request(`/api/users/${id}`, { as: "admin", ...put(id, ["rules"], { rules: [] }) });
    assert.equal(r.status, 200);
    await r.body?.cancel();
    assert.equal(await search("x.txt"), '{"dir":false,"path":"a/x.txt"}\n{"dir":false,"path":"ab/x.txt"}\n');
    const denyAb = { regex: false, allow: false, path: "/ab", regexp: null };
    r = await f.request(`/api/users/${id}`, { as: "admin", ...put(id, ["rules"], { rules: [denyAb] }) });
    await r.body?.cancel();
    assert.equal(await search("x.txt"), '{"dir":false,"path":"a/x.txt"}\n', "user rule applies at once");
    const denyDocs = { regex: true, allow: false, path: "", regexp: { raw: "^/docs" } };
    r = await f.request("/api/settings", {
      as: "admin",
      method: "PUT",
      body: JSON.stringify({ rules: [denyDocs] }),
    });
    assert.equal(r.status, 200);
    await r.body?.cancel();
    assert.equal(await search("readme"), "", "global rule applies at once");
    assert.equal(await search("env"), "", "dot-files hidden");
    r = await f.request(`/api/users/${id}`, {
      as: "admin",
      ...put(id, ["hideDotfiles"], { hideDotfiles: false }),
    });
    await r.body?.cancel();
    assert.equal(await search("env"), '{"dir":false,"path":".env"}\n');
    r = await f.request(`/api/users/${id}`, {
      as: "admin",
      ...put(id, ["hideDotfiles"], { hideDotfiles: true }),
    });
    await r.body?.cancel();
    assert.equal(await search("env"), "");
  } finally {
    await f.close();
  }
});

Deno.test("GET /api/search from the index sees files written through the API and on disk", async () => {
  const f = await filesFixture({ searchIndex: true });
  try {
    let r = await f.request("/api/resources/new%20folder/report.pdf", {
      as: "u",
      method: "POST",
      body: "PDF",
    });
    assert.equal(r.status, 200);
    await r.body?.cancel();
    await Deno.mkdir(`${f.home}/deep/er`, { recursive: true });
    await Deno.writeTextFile(`${f.home}/deep/er/Report.pdf`, "");
    await Deno.remove(`${f.home}/docs`, { recursive: true });
    r = await f.request(`/api/search/?query=${encodeURIComponent("report type:pdf")}`, { as: "u" });
    assert.equal(r.headers.get("X-Search-Index"), "ready");
    assert.equal(
      await r.text(),
      '{"dir":false,"path":"deep/er/Report.pdf"}\n{"dir":false,"path":"new folder/report.pdf"}\n',
    );
    r = await f.request("/api/search/?query=readme", { as: "u" });
    assert.equal(await r.text(), "");
  } finally {
    await f.close();
  }
});

Deno.test("GET /api/resources right after a change in a big folder shows it; the index has it once answered", async () => {
  const f = await filesFixture({ searchIndex: true });
  try {
    await Deno.mkdir(`${f.home}/big`);
    for (let i = 0; i < 300; i++) await Deno.writeTextFile(`${f.home}/big/f-${i}.txt`, "");
    await f.deps.searchIndex.refresh();
    const names = async () => {
      const r = await f.app.request("/api/resources/big/", { headers: { "X-Auth": f.tokens.u } });
      assert.equal(r.status, 200);
      return ((await r.json()).items as { name: string }[]).map((i) => i.name);
    };
    assert.equal((await names()).length, 300); // now cached (lib/fs/listing_cache.ts)
    await Deno.writeTextFile(`${f.home}/big/zz-new.txt`, "");
    assert.ok((await names()).includes("zz-new.txt"), "the listing right after the change lists the file");
    // Straight to the app (the helper would reconcile first): the watcher's re-read, after its delay and the
    // requests. Generous deadline; no timing is asserted.
    let found = "";
    for (let i = 0; i < 100 && !found; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const r = await f.app.request("/api/search/?query=zz-new", { headers: { "X-Auth": f.tokens.u } });
      assert.equal(r.headers.get("X-Search-Index"), "ready");
      found = await r.text();
    }
    assert.equal(found, '{"dir":false,"path":"big/zz-new.txt"}\n');
  } finally {
    await f.close();
  }
});
