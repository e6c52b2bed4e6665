/** WebDAV behaviour beyond litmus: parallel LOCKs, finite depth, streamed big listings, event hooks. */
import assert from "node:assert/strict";
import { TEST_PASSWORD, testApp } from "../_helpers.ts";
import { ForbiddenError } from "../../lib/errors.ts";
import type { EventHooks, HookEvent } from "../../lib/hooks.ts";
import { basic, serveDav } from "./_dav.ts";

const LOCKINFO = '<?xml version="1.0"?><lockinfo xmlns="DAV:"><lockscope><exclusive/></lockscope>' +
  "<locktype><write/></locktype><owner>t</owner></lockinfo>";
const AUTH = { Authorization: basic("admin", TEST_PASSWORD) };

Deno.test("simultaneous exclusive LOCKs over separate connections: exactly one wins", async () => {
  const s = await serveDav();
  try {
    await Deno.writeTextFile(`${s.t.root}/f.txt`, "x");
    // One authenticated request first, as a client does: the verified credentials are then remembered, so the ten
    // LOCKs race for the lock, not for the password-guess throttle.
    const warm = await fetch(s.davUrl, { method: "PROPFIND", headers: { ...AUTH, Depth: "0" } });
    await warm.body?.cancel();
    const statuses = await Promise.all(Array.from({ length: 10 }, async () => {
      const client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
      try {
        const res = await fetch(`${s.davUrl}f.txt`, {
          method: "LOCK",
          headers: AUTH,
          body: LOCKINFO,
          client,
        });
        await res.body?.cancel();
        return res.status;
      } finally {
        client.close();
      }
    }));
    assert.deepEqual(statuses.sort(), [200, ...Array(9).fill(423)]);
    const put = await fetch(`${s.davUrl}f.txt`, { method: "PUT", headers: AUTH, body: "y" });
    assert.equal(put.status, 423);
    await put.body?.cancel();
  } finally {
    await s.close();
  }
});

Deno.test("PROPFIND with Depth infinity is refused with 403 and propfind-finite-depth", async () => {
  const t = await testApp({ config: { webdav: true } });
  try {
    for (const depth of ["infinity", null, "2"]) {
      const headers: Record<string, string> = { ...AUTH };
      if (depth) headers.Depth = depth;
      const res = await t.app.request("/dav/", { method: "PROPFIND", headers });
      assert.equal(res.status, 403);
      assert.match(await res.text(), /propfind-finite-depth/);
    }
  } finally {
    await t.close();
  }
});

Deno.test("PROPFIND of a big folder streams every visible entry", async () => {
  const t = await testApp({ config: { webdav: true } });
  try {
    const n = 2_000;
    await Deno.mkdir(`${t.root}/big`);
    for (let i = 0; i < n; i++) Deno.writeFileSync(`${t.root}/big/f${i}.txt`, new Uint8Array(0));
    const res = await t.app.request("/dav/big/", { method: "PROPFIND", headers: { ...AUTH, Depth: "1" } });
    assert.equal(res.status, 207);
    assert.equal(res.headers.get("Content-Length"), null);
    let chunks = 0;
    let responses = 0;
    let tail = "";
    for await (const chunk of res.body!.pipeThrough(new TextDecoderStream())) {
      chunks++;
      const text = tail + chunk;
      responses += text.split("<response>").length - 1;
      tail = text.slice(-12);
    }
    assert.equal(responses, n + 1);
    assert.ok(chunks > 3, `${chunks} chunks`);
  } finally {
    await t.close();
  }
});

Deno.test("WebDAV fires the same event hooks as the Files API", async () => {
  const t = await testApp({ config: { webdav: true } });
  const seen: string[] = [];
  const hooks: EventHooks = {
    before: (event: HookEvent, ctx) =>
      Promise.resolve(void seen.push(`before ${event} ${ctx.file.slice(t.root.length)}`)),
    after: (event: HookEvent) => Promise.resolve(void seen.push(`after ${event}`)),
  };
  t.deps.hooks = hooks;
  try {
    const steps: [string, string, Record<string, string>, string | undefined][] = [
      ["PUT", "/dav/a.txt", {}, "1"],
      ["PUT", "/dav/a.txt", {}, "2"],
      ["MKCOL", "/dav/d", {}, undefined],
      ["COPY", "/dav/a.txt", { Destination: "/dav/b.txt" }, undefined],
      ["MOVE", "/dav/b.txt", { Destination: "/dav/c.txt" }, undefined],
      ["DELETE", "/dav/c.txt", {}, undefined],
    ];
    for (const [method, path, headers, body] of steps) {
      const res = await t.app.request(path, { method, headers: { ...AUTH, ...headers }, body });
      assert.ok(res.status < 300, `${method} ${path}: ${res.status}`);
    }
    assert.deepEqual(seen.filter((s) => s.startsWith("before")), [
      "before upload /a.txt",
      "before save /a.txt",
      "before upload /d",
      "before copy /a.txt",
      "before rename /b.txt",
      "before delete /c.txt",
    ]);
    // A failing before-hook stops the operation.
    t.deps.hooks = { ...hooks, before: () => Promise.reject(new ForbiddenError("hook_refused")) };
    const res = await t.app.request("/dav/x.txt", { method: "PUT", headers: AUTH, body: "x" });
    assert.equal(res.status, 403);
    await assert.rejects(Deno.stat(`${t.root}/x.txt`), Deno.errors.NotFound);
  } finally {
    await t.close();
  }
});
