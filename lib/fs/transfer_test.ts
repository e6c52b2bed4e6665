import assert from "node:assert/strict";
import { HttpError } from "../errors.ts";
import { noopHooks } from "../hooks.ts";
import { copyEntry } from "./copy.ts";
import { resolveScoped } from "./gate.ts";
import { moveEntry } from "./move.ts";
import { deleteResource } from "./remove.ts";
import type { FsRequest } from "./request.ts";
import { numberedName, patchResource } from "./transfer.ts";
import { uploadResource } from "./write.ts";
import { ctxFor, exists, makeTree, pathRule, withTempRoot } from "./_testing.ts";

function req(root: string, options: Parameters<typeof ctxFor>[1] = {}): FsRequest {
  const gate = ctxFor(root, options);
  return { gate, user: { ...gate.user, id: 1 } as FsRequest["user"], hooks: noopHooks };
}

async function statusOf(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (err) {
    if (err instanceof HttpError) return err.status;
    throw err;
  }
}

const patch = (action: string, destination: string, o: { override?: boolean; rename?: boolean } = {}) => ({
  action,
  destination,
  override: o.override ?? false,
  rename: o.rename ?? false,
});

Deno.test("numberedName() numbers before the last extension", () => {
  assert.equal(numberedName("a.tar.gz", 1), "a.tar(1).gz");
  assert.equal(numberedName("folder", 2), "folder(2)");
  assert.equal(numberedName(".bashrc", 1), "(1).bashrc");
});

Deno.test("copyEntry() continues past a failing entry and copies the rest", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "src/ok.txt": "readable", "src/real/x.txt": "x" });
    // A symlinked folder cannot be copied (like upstream); the sibling still is.
    await Deno.symlink("real", `${root}/src/linked`);
    const ctx = ctxFor(root);
    const src = await resolveScoped(ctx, "/src", "create");
    const dst = await resolveScoped(ctx, "/dst", "create");
    await assert.rejects(
      copyEntry(src, dst),
      (e: HttpError) => e.status === 500 && e.code === "copy_incomplete",
    );
    assert.equal(await Deno.readTextFile(`${root}/dst/ok.txt`), "readable");
    assert.equal(await Deno.readTextFile(`${root}/dst/real/x.txt`), "x");
    assert.equal(await exists(`${root}/dst/linked`), false);
  });
});

Deno.test("copyEntry() never copies an escaping link, copies in-scope file links as files", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(root, { "srcdir/normal.txt": "n", "inscope.txt": "in-scope" });
    await makeTree(outside, { "secret.txt": "secret" });
    await Deno.symlink(`${outside}/secret.txt`, `${root}/srcdir/link.txt`);
    const ctx = ctxFor(root);
    // Refused (403) as a whole, and no partial destination is left behind.
    await assert.rejects(
      copyEntry(await resolveScoped(ctx, "/srcdir", "create"), await resolveScoped(ctx, "/dstdir", "create")),
      (err: unknown) => (err as { status?: number }).status === 403,
    );
    assert.equal(await exists(`${root}/dstdir`), false);
    assert.deepEqual(
      (await Array.fromAsync(Deno.readDir(root))).filter((e) => e.name.startsWith(".fb-tmp")),
      [],
    );
    await Deno.remove(`${root}/srcdir/link.txt`);
    await Deno.symlink(`${root}/inscope.txt`, `${root}/srcdir/link.txt`);
    await copyEntry(
      await resolveScoped(ctx, "/srcdir", "create"),
      await resolveScoped(ctx, "/dst2", "create"),
    );
    const copied = await Deno.lstat(`${root}/dst2/link.txt`);
    assert.ok(copied.isFile && !copied.isSymlink);
    assert.equal(await Deno.readTextFile(`${root}/dst2/link.txt`), "in-scope");
  });
});

Deno.test("patchResource() refuses a whole copy/move/delete when a descendant is denied", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "src/public.txt": "p", "src/secret/marker.txt": "m", "clean/file.txt": "f" });
    const r = req(root, { globalRules: [pathRule("/src/secret")] });
    assert.equal(await statusOf(patchResource(r, "/src", patch("copy", "/dst"))), 403);
    assert.equal(await exists(`${root}/dst`), false);
    assert.equal(await statusOf(patchResource(r, "/src", patch("rename", "/moved"))), 403);
    assert.equal(await exists(`${root}/moved`), false);
    assert.ok(await exists(`${root}/src/secret/marker.txt`));
    assert.equal(await statusOf(deleteResource(r, "/src")), 403);
    assert.ok(await exists(`${root}/src/secret/marker.txt`));
    assert.equal(await statusOf(patchResource(r, "/clean", patch("copy", "/clean-copy"))), 200);
    assert.ok(await exists(`${root}/clean-copy/file.txt`));
    // The mapped destination is checked too.
    const r2 = req(root, { globalRules: [pathRule("/out/file.txt")] });
    assert.equal(await statusOf(patchResource(r2, "/clean", patch("copy", "/out"))), 403);
    assert.equal(await exists(`${root}/out`), false);
  });
});

Deno.test("patchResource() handles conflicts, override, auto-numbering and moves into itself", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "a.txt": "A", "b.txt": "B", "dir/x.txt": "x", "other/": "" });
    const r = req(root);
    assert.equal(await statusOf(patchResource(r, "/a.txt", patch("copy", "/b.txt"))), 409);
    assert.equal(await statusOf(patchResource(r, "/a.txt", patch("copy", "/b.txt", { rename: true }))), 200);
    assert.equal(await Deno.readTextFile(`${root}/b(1).txt`), "A");
    assert.equal(await statusOf(patchResource(r, "/a.txt", patch("copy", "/a.txt", { rename: true }))), 200);
    assert.equal(await Deno.readTextFile(`${root}/a(1).txt`), "A");
    const noModify = req(root, { perm: { modify: false } });
    assert.equal(
      await statusOf(patchResource(noModify, "/a.txt", patch("copy", "/b.txt", { override: true }))),
      403,
    );
    assert.equal(
      await statusOf(patchResource(r, "/a.txt", patch("copy", "/b.txt", { override: true }))),
      200,
    );
    assert.equal(await Deno.readTextFile(`${root}/b.txt`), "A");
    assert.equal(await statusOf(patchResource(r, "/dir", patch("rename", "/dir/sub"))), 400);
    assert.equal(await statusOf(patchResource(r, "/dir", patch("copy", "/dir/sub"))), 400);
    assert.equal(await statusOf(patchResource(r, "/dir", patch("rename", "/"))), 403);
    assert.equal(await statusOf(patchResource(r, "/", patch("copy", "/x"))), 403);
    assert.equal(await statusOf(patchResource(r, "/dir", patch("chmod", "/y"))), 400);
    assert.equal(await statusOf(patchResource(r, "/missing", patch("copy", "/y"))), 404);
    assert.equal(
      await statusOf(patchResource(r, "/a.txt", patch("rename", "/dir", { override: true }))),
      409,
    );
    assert.equal(await statusOf(patchResource(r, "/dir", patch("rename", "/other/dir"))), 200);
    assert.equal(await Deno.readTextFile(`${root}/other/dir/x.txt`), "x");
    assert.equal(await exists(`${root}/dir`), false);
    assert.equal(
      await statusOf(patchResource(req(root, { perm: { rename: false } }), "/a.txt", patch("rename", "/z"))),
      403,
    );
    assert.equal(
      await statusOf(patchResource(req(root, { perm: { create: false } }), "/a.txt", patch("copy", "/z"))),
      403,
    );
  });
});

Deno.test("patchResource() refuses escaping source and destination links", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(root, { "a.txt": "A" });
    await makeTree(outside, { "victim.txt": "v" });
    await Deno.symlink(outside, `${root}/out`);
    const r = req(root);
    assert.equal(await statusOf(patchResource(r, "/a.txt", patch("copy", "/out/a.txt"))), 403);
    assert.equal(await statusOf(patchResource(r, "/a.txt", patch("rename", "/out/a.txt"))), 403);
    assert.equal(await statusOf(patchResource(r, "/out/victim.txt", patch("rename", "/v.txt"))), 403);
    assert.equal(await exists(`${outside}/a.txt`), false);
    assert.ok(await exists(`${outside}/victim.txt`));
    assert.ok(await exists(`${root}/a.txt`));
  });
});

Deno.test("moveEntry() copy fallback keeps the source until the copy is complete", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "src/a.txt": "a", "src/deep/b.txt": "b", "dst/old.txt": "old" });
    const ctx = ctxFor(root);
    await moveEntry(
      await resolveScoped(ctx, "/src", "rename"),
      await resolveScoped(ctx, "/moved", "rename"),
      { forceCopy: true },
    );
    assert.equal(await Deno.readTextFile(`${root}/moved/deep/b.txt`), "b");
    assert.equal(await exists(`${root}/src`), false);
    // Merge onto an existing folder (rename(2) would fail with ENOTEMPTY).
    await makeTree(root, { "src2/new.txt": "new" });
    await moveEntry(await resolveScoped(ctx, "/src2", "rename"), await resolveScoped(ctx, "/dst", "rename"));
    assert.deepEqual((await Array.fromAsync(Deno.readDir(`${root}/dst`))).map((e) => e.name).sort(), [
      "new.txt",
      "old.txt",
    ]);
    assert.equal(await exists(`${root}/src2`), false);
    // A failing copy (a named pipe cannot be copied) leaves the source where it was.
    await makeTree(root, { "src3/ok.txt": "ok" });
    new Deno.Command("mkfifo", { args: [`${root}/src3/pipe`] }).outputSync();
    await assert.rejects(
      moveEntry(await resolveScoped(ctx, "/src3", "rename"), await resolveScoped(ctx, "/m3", "rename"), {
        forceCopy: true,
      }),
    );
    assert.ok(await exists(`${root}/src3/ok.txt`));
    assert.equal(await exists(`${root}/m3`), false);
    assert.deepEqual(
      (await Array.fromAsync(Deno.readDir(root))).filter((e) => e.name.startsWith(".fb-tmp")),
      [],
    );
  });
});

Deno.test("deleteResource() removes a link, never its target, and refuses the root", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(root, { "d/f.txt": "f" });
    await makeTree(outside, { "victim.txt": "v" });
    await Deno.symlink(`${root}/d`, `${root}/link`);
    await Deno.symlink(outside, `${root}/out`);
    const r = req(root);
    await deleteResource(r, "/link");
    assert.ok(await exists(`${root}/d/f.txt`));
    assert.equal(await statusOf(deleteResource(r, "/out/victim.txt")), 403, "escaping link");
    assert.equal(await statusOf(deleteResource(r, "/out")), 403);
    assert.ok(await exists(`${outside}/victim.txt`));
    assert.equal(await statusOf(deleteResource(r, "/")), 403);
    assert.equal(await statusOf(deleteResource(r, "/missing")), 404);
    assert.equal(await statusOf(deleteResource(req(root, { perm: { delete: false } }), "/d")), 403);
    await deleteResource(r, "/d");
    assert.equal(await exists(`${root}/d`), false);
  });
});

Deno.test("uploadResource() needs override and modify for existing files, refuses dangling escapes", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(root, { "a.txt": "old" });
    const body = () => new TextEncoder().encode("new");
    assert.equal(await statusOf(uploadResource(req(root), "/a.txt", body(), { override: false })), 409);
    assert.equal(
      await statusOf(
        uploadResource(req(root, { perm: { modify: false } }), "/a.txt", body(), { override: true }),
      ),
      403,
    );
    assert.equal(await Deno.readTextFile(`${root}/a.txt`), "old");
    const res = await uploadResource(req(root), "/a.txt", body(), { override: true });
    assert.match(res.etag, /^"[0-9a-f]+3"$/);
    assert.equal(await Deno.readTextFile(`${root}/a.txt`), "new");
    await uploadResource(req(root), "/newdir/", null, { override: false });
    assert.ok((await Deno.stat(`${root}/newdir`)).isDirectory);
    await Deno.symlink(`${outside}/created.txt`, `${root}/evil`);
    assert.equal(await statusOf(uploadResource(req(root), "/evil", body(), { override: true })), 403);
    assert.equal(await exists(`${outside}/created.txt`), false);
  });
});

Deno.test("file operations run inside the event hooks; a failing before-hook prevents them", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "a.txt": "A" });
    const events: string[] = [];
    const recording = {
      before: (e: string, ctx: { file: string; destination: string }) => {
        events.push(`before_${e} ${ctx.file.slice(root.length)} ${ctx.destination.slice(root.length)}`);
        return Promise.resolve();
      },
      after: (e: string) => {
        events.push(`after_${e}`);
        return Promise.resolve();
      },
    };
    const r: FsRequest = { ...req(root), hooks: recording };
    await uploadResource(r, "/up.txt", new TextEncoder().encode("u"), { override: false });
    await patchResource(r, "/a.txt", patch("copy", "/b.txt"));
    await patchResource(r, "/b.txt", patch("rename", "/c.txt"));
    await deleteResource(r, "/c.txt");
    assert.deepEqual(events, [
      "before_upload /up.txt ",
      "after_upload",
      "before_copy /a.txt /b.txt",
      "after_copy",
      "before_rename /b.txt /c.txt",
      "after_rename",
      "before_delete /c.txt ",
      "after_delete",
    ]);
    const failing: FsRequest = {
      ...req(root),
      hooks: { before: () => Promise.reject(new Error("hook failed")), after: () => Promise.resolve() },
    };
    await assert.rejects(
      uploadResource(failing, "/never.txt", new TextEncoder().encode("x"), { override: false }),
    );
    await assert.rejects(deleteResource(failing, "/a.txt"));
    assert.equal(await exists(`${root}/never.txt`), false);
    assert.ok(await exists(`${root}/a.txt`));
  });
});
