import assert from "node:assert/strict";
import { checkQuota, limitBody, quotaOf, scopeBytes, UsageCache, usageKeyOf } from "./quota.ts";

Deno.test("quotaOf() reads only positive whole byte counts", () => {
  assert.equal(quotaOf({ quota: 10 }), 10);
  for (const quota of [undefined, 0, -5, Number.NaN, Infinity]) assert.equal(quotaOf({ quota }), 0);
});

Deno.test("scopeBytes() caches the walk until a write invalidates an overlapping scope", async () => {
  const root = await Deno.makeTempDir({ prefix: "quota-" });
  const kv = await Deno.openKv(":memory:");
  try {
    const deps = { config: { root }, kv, usage: new UsageCache() };
    await Deno.mkdir(`${root}/u/sub`, { recursive: true });
    await Deno.writeTextFile(`${root}/u/sub/a`, "12345");
    await Deno.symlink("/etc/passwd", `${root}/u/link`);
    const user = { id: 1, scope: "/u", quota: 10 };
    assert.equal(await scopeBytes(deps, user), 5);
    await Deno.writeTextFile(`${root}/u/b`, "123");
    assert.equal(await scopeBytes(deps, user), 5, "cached");
    deps.usage.invalidate(`${root}/elsewhere`);
    assert.equal(await scopeBytes(deps, user), 5, "an unrelated scope leaves it");
    deps.usage.invalidate(usageKeyOf(deps, { scope: "/" }));
    assert.equal(await scopeBytes(deps, user), 8, "a write by a user whose scope contains it drops it");
    await checkQuota(deps, user, 2);
    await assert.rejects(checkQuota(deps, user, 3), (e: Error & { status?: number }) => e.status === 507);
    await checkQuota(deps, { ...user, quota: 0 }, 1_000_000);
  } finally {
    kv.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("limitBody() passes up to the limit and errors with 507 past it", async () => {
  const body = (n: number) => new Blob([new Uint8Array(n)]).stream();
  assert.equal((await new Response(limitBody(body(10), 10)).arrayBuffer()).byteLength, 10);
  await assert.rejects(
    new Response(limitBody(body(11), 10)).arrayBuffer(),
    (e: Error & { status?: number }) => e.status === 507,
  );
});

Deno.test("scopeBytes() never counts through a folder swapped for a link, nor a scope leading out of the root", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "quota-" }));
  const kv = await Deno.openKv(":memory:");
  try {
    const root = `${dir}/root`;
    const deps = { config: { root }, kv, usage: new UsageCache() };
    await Deno.mkdir(`${root}/u/sub`, { recursive: true });
    await Deno.mkdir(`${dir}/outside`);
    await Deno.writeTextFile(`${root}/u/a`, "12");
    await Deno.writeTextFile(`${dir}/outside/big`, "x".repeat(1000));
    await Deno.symlink(`${dir}/outside`, `${root}/u/sub/link`);
    const user = { id: 1, scope: "/u", quota: 10 };
    assert.equal(await scopeBytes(deps, user), 2);
    await Deno.symlink(`${dir}/outside`, `${root}/out`);
    await assert.rejects(
      scopeBytes(deps, { ...user, scope: "/out" }),
      (e: Error & { status?: number }) => e.status === 403,
    );
    const unsafe = { ...deps, config: { root, followExternalSymlinks: true }, usage: new UsageCache() };
    assert.equal(await scopeBytes(unsafe, { ...user, scope: "/out" }), 1000);
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
