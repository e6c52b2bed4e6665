/** HTTP tests of PATCH /api/resources (docs/api.md#resources): moves and copies, destinations, denied descendants. */
import assert from "node:assert/strict";
import { escapeTargets, exists, filesFixture } from "../fixtures/fs/tree.ts";

Deno.test("PATCH /api/resources: role matrix, double-decoded destination, traversal on destinations", async () => {
  const f = await filesFixture();
  try {
    const dest = (p: string) => encodeURIComponent(p.split("/").map(encodeURIComponent).join("/"));
    let r = await f.request(`/api/resources/a.txt?action=copy&destination=${dest("/b.txt")}`, {
      method: "PATCH",
    });
    assert.equal(r.status, 401);
    r = await f.request(`/api/resources/a.txt?action=copy&destination=${dest("/b.txt")}`, {
      method: "PATCH",
      as: "ro",
    });
    assert.equal(r.status, 403);
    r = await f.request(`/api/resources/a.txt?action=rename&destination=${dest("/b.txt")}`, {
      method: "PATCH",
      as: "ro",
    });
    assert.equal(r.status, 403);
    r = await f.request(`/api/resources/a.txt?action=copy&destination=${dest("/my copy #1.txt")}`, {
      method: "PATCH",
      as: "u",
    });
    assert.equal(r.status, 200);
    assert.equal(await r.text(), "200 OK\n");
    assert.equal(await Deno.readTextFile(`${f.home}/my copy #1.txt`), "A");
    r = await f.request(
      `/api/resources/a.txt?action=copy&destination=${dest("/my copy #1.txt")}&rename=true`,
      { method: "PATCH", as: "u" },
    );
    assert.equal(r.status, 200);
    assert.equal(await Deno.readTextFile(`${f.home}/my copy #1(1).txt`), "A");
    r = await f.request(`/api/resources/docs?action=rename&destination=${dest("/moved/docs")}`, {
      method: "PATCH",
      as: "u",
    });
    assert.equal(r.status, 200);
    assert.ok(await exists(`${f.home}/moved/docs/readme.md`));
    r = await f.request(`/api/resources/home/a.txt?action=rename&destination=${dest("/home/z.txt")}`, {
      method: "PATCH",
      as: "admin",
    });
    assert.equal(r.status, 200);
    assert.ok(await exists(`${f.home}/z.txt`));
    const badDestinations: [string, number][] = [
      ["/evil-link/new.txt", 403],
      ["/evil-link/dir/new.txt", 403],
      ["/dangling", 403],
      ["/escape.txt", 403],
      ["/rule-hidden.txt", 403],
      ["/a/new.txt", 403],
      ["/.new", 403],
      ["/", 403],
    ];
    for (const [d, status] of badDestinations) {
      for (const action of ["copy", "rename"]) {
        r = await f.request(`/api/resources/z.txt?action=${action}&destination=${dest(d)}&override=true`, {
          method: "PATCH",
          as: "u",
        });
        assert.equal(r.status, status, `${action} → ${d}`);
      }
    }
    for (const target of escapeTargets(f)) assert.equal(await exists(target), false, target);
    // `..` in the destination is cleaned inside the scope.
    r = await f.request(`/api/resources/z.txt?action=copy&destination=${dest("/../../new.txt")}`, {
      method: "PATCH",
      as: "u",
    });
    assert.equal(r.status, 200);
    assert.ok(await exists(`${f.home}/new.txt`));
    assert.equal(await exists(`${f.root}/new.txt`), false);
    // Escaping sources.
    r = await f.request(`/api/resources/escape.txt?action=copy&destination=${dest("/stolen.txt")}`, {
      method: "PATCH",
      as: "u",
    });
    assert.equal(r.status, 403);
    r = await f.request(`/api/resources/evil-link?action=copy&destination=${dest("/stolen")}`, {
      method: "PATCH",
      as: "u",
    });
    assert.equal(r.status, 403);
    assert.equal(await exists(`${f.home}/stolen.txt`), false);
    assert.equal(await exists(`${f.home}/stolen`), false);
    r = await f.request(`/api/resources/ab?action=rename&destination=${dest("/ab/inner")}`, {
      method: "PATCH",
      as: "u",
    });
    assert.equal(r.status, 400);
    assert.equal(await r.text(), "400 Bad Request (source is parent)\n");
    r = await f.request(`/api/resources/ab?action=chmod&destination=${dest("/x")}`, {
      method: "PATCH",
      as: "u",
    });
    assert.equal(r.status, 400);
  } finally {
    await f.close();
  }
});

Deno.test("PATCH/DELETE /api/resources: a denied descendant refuses the whole operation", async () => {
  const f = await filesFixture();
  try {
    await Deno.mkdir(`${f.home}/src/a`, { recursive: true });
    await Deno.writeTextFile(`${f.home}/src/public.txt`, "p");
    // The user rule /a only covers /a, not /src/a: add a global rule for a nested path instead.
    await f.deps.store.saveSettings({
      ...(await f.deps.store.findSettings())!,
      rules: [{ regex: true, allow: false, path: "", regexp: { raw: "/secret/" } }],
    });
    await Deno.mkdir(`${f.home}/src/secret`, { recursive: true });
    await Deno.writeTextFile(`${f.home}/src/secret/marker.txt`, "m");
    let r = await f.request("/api/resources/src?action=copy&destination=%252Fdst", {
      method: "PATCH",
      as: "u",
    });
    assert.equal(r.status, 403);
    assert.equal(await exists(`${f.home}/dst`), false);
    r = await f.request("/api/resources/src?action=rename&destination=%252Fmoved", {
      method: "PATCH",
      as: "u",
    });
    assert.equal(r.status, 403);
    assert.ok(await exists(`${f.home}/src/secret/marker.txt`));
    r = await f.request("/api/resources/src", { method: "DELETE", as: "u" });
    assert.equal(r.status, 403);
    assert.ok(await exists(`${f.home}/src/secret/marker.txt`));
  } finally {
    await f.close();
  }
});
