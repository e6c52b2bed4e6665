import assert from "node:assert/strict";
import { HttpError } from "../errors.ts";
import { resolveScoped } from "./gate.ts";
import { assertNewNames, assertPathFits, assertTreeFits, isCreating } from "./path_limits.ts";
import { ctxFor, makeTree, withTempRoot } from "./_testing.ts";

async function status(p: Promise<unknown> | (() => unknown)): Promise<number> {
  try {
    await (typeof p === "function" ? p() : p);
    return 200;
  } catch (err) {
    if (err instanceof HttpError) return err.status;
    throw err;
  }
}

Deno.test("assertPathFits() refuses NUL (400), names over 255 bytes (400) and paths past PATH_MAX with the root (414)", async () => {
  const cases: [string, string, number][] = [
    ["/srv", "/a/b.txt", 200],
    ["/srv", "/a\nb/\u2028", 200],
    ["/srv", "/a\0b", 400],
    ["/srv", "/" + "n".repeat(255), 200],
    ["/srv", "/" + "n".repeat(256), 400],
    ["/", "/" + ("d".repeat(200) + "/").repeat(20) + "e".repeat(74), 200],
    ["/", "/" + ("d".repeat(200) + "/").repeat(20) + "e".repeat(75), 414],
    ["/srv/files", "/" + ("d".repeat(200) + "/").repeat(20) + "e".repeat(64), 200],
    ["/srv/files", "/" + ("d".repeat(200) + "/").repeat(20) + "e".repeat(65), 414],
  ];
  for (const [root, vpath, want] of cases) {
    assert.equal(
      await status(() => assertPathFits(root, vpath)),
      want,
      `${root} ${JSON.stringify(vpath.slice(0, 20))}`,
    );
  }
});

Deno.test("isCreating() is true for the needs that create entries", () => {
  assert.equal(isCreating("create"), true);
  assert.equal(isCreating("rename"), true);
  assert.equal(isCreating(["create", "modify"]), true);
  for (const need of ["read", "download", "modify", "delete", "share"] as const) {
    assert.equal(isCreating(need), false);
  }
});

Deno.test("assertNewNames() judges only the missing part of a path", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "odd\ndir/x.txt": "x", "ok/": "" });
    const cases: [string[], number][] = [
      [["ok", "new.txt"], 200],
      [["odd\ndir", "new.txt"], 200],
      [["odd\ndir", "x.txt"], 200],
      [["odd\ndir", "bad\rname"], 400],
      [["ok", "bad\u0085", "deeper.txt"], 400],
      [["ok", "fresh", "bad\\name"], 400],
      [["ok", "fresh", "deeper", "good.txt"], 200],
      [["new\tdir", "good.txt"], 400],
      [["a.txt", "x"], 200],
    ];
    for (const [segments, want] of cases) {
      assert.equal(await status(assertNewNames(root, segments)), want, JSON.stringify(segments));
    }
  });
});

Deno.test("resolveScoped() refuses invalid new names only for creating needs", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "odd\nfile.txt": "x" });
    const ctx = ctxFor(root);
    assert.equal(await status(resolveScoped(ctx, "/new\nfile.txt", "create")), 400);
    assert.equal(await status(resolveScoped(ctx, "/new\nfile.txt", "rename")), 400);
    assert.equal(await status(resolveScoped(ctx, "/new\nfile.txt", "read")), 200);
    assert.equal(await status(resolveScoped(ctx, "/new\nfile.txt", "delete")), 200);
    assert.equal(await status(resolveScoped(ctx, "/odd\nfile.txt", "create")), 200);
    assert.equal(await status(resolveScoped(ctx, "/a\0b", "read")), 400);
  });
});

Deno.test("assertTreeFits() refuses a destination where the deepest entry would pass PATH_MAX", async () => {
  await withTempRoot(async ({ root }) => {
    const deep = ["a", "b", "c"].map((s) => s.repeat(200)).join("/");
    await makeTree(root, { [`tree/${deep}/leaf.txt`]: "L", "flat/x.txt": "x" });
    const ctx = ctxFor(root);
    const long = "/" + Array.from({ length: 17 }, (_, i) => `t${i}` + "y".repeat(200)).join("/");
    const tree = await resolveScoped(ctx, "/tree", "read");
    const flat = await resolveScoped(ctx, "/flat", "read");
    const far = await resolveScoped(ctx, long, "create");
    const near = await resolveScoped(ctx, "/t", "create");
    assert.equal(await status(assertTreeFits(tree, far)), 400);
    assert.equal(await status(assertTreeFits(tree, near)), 200);
    assert.equal(await status(assertTreeFits(flat, far)), 200);
    const file = await resolveScoped(ctx, "/flat/x.txt", "read");
    assert.equal(await status(assertTreeFits(file, far)), 200);
  });
});
