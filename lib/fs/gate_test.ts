import assert from "node:assert/strict";
import { ForbiddenError, HttpError, NotFoundError } from "../errors.ts";
import {
  childVisibility,
  isConfinedLink,
  isVisible,
  resolveScoped,
  resolveWalkBase,
  scopedChild,
  scopeDirOf,
  scopedParent,
  scopedTempSibling,
} from "./gate.ts";
import { joinVpath } from "./path.ts";
import { setLogSink } from "../log.ts";
import { ctxFor, exists, makeTree, pathRule, regexRule, withTempRoot } from "./_testing.ts";

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (err) {
    if (err instanceof HttpError) return err.status;
    throw err;
  }
}

Deno.test("resolveScoped() checks the permission before anything else (202 for download)", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "a.txt": "x" });
    assert.equal(
      await status(resolveScoped(ctxFor(root, { perm: { download: false } }), "/a.txt", "download")),
      202,
    );
    assert.equal(
      await status(resolveScoped(ctxFor(root, { perm: { create: false } }), "/a.txt", "create")),
      403,
    );
    assert.equal(
      await status(resolveScoped(ctxFor(root, { perm: { modify: false } }), "/a.txt", ["create", "modify"])),
      403,
    );
    // Permission comes first: even a rule-denied path answers 202, not 403.
    const ctx = ctxFor(root, { perm: { download: false }, rules: [pathRule("/a.txt")] });
    assert.equal(await status(resolveScoped(ctx, "/a.txt", "download")), 202);
    assert.equal(await status(resolveScoped(ctxFor(root), "/a.txt", "download")), 200);
  });
});

Deno.test("resolveScoped() maps vpaths under the scope and cannot climb out", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "users/alice/root/downloads/f.txt": "x", "secret.txt": "s" });
    const ctx = ctxFor(root, { scope: "/users/alice" });
    const p = await resolveScoped(ctx, "/root/downloads", "read");
    assert.equal(p.real, `${root}/users/alice/root/downloads`);
    assert.equal(p.vpath, "/root/downloads");
    const up = await resolveScoped(ctx, "/../../secret.txt", "read");
    assert.equal(up.real, `${root}/users/alice/secret.txt`);
    assert.equal(up.lstat, null);
    assert.equal(scopeDirOf(ctxFor(root, { scope: "../../etc" })), `${root}/etc`);
    const follow = await resolveScoped(
      ctxFor(root, { scope: "/users/alice", followExternalSymlinks: true }),
      "/root/downloads",
      "read",
    );
    assert.equal(follow.real, `${root}/users/alice/root/downloads`);
  });
});

Deno.test("resolveScoped() applies rules on whole segments and hides dot-files on any segment", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "a/x.txt": "1", "ab/x.txt": "2", ".git/config": "c", "Secret.txt": "s" });
    const ctx = ctxFor(root, { globalRules: [pathRule("/a")] });
    assert.equal(await status(resolveScoped(ctx, "/a/x.txt", "read")), 403);
    assert.equal(await status(resolveScoped(ctx, "/a", "read")), 403);
    assert.equal(await status(resolveScoped(ctx, "/ab/x.txt", "read")), 200);
    // Canonicalised before matching.
    const deny = ctxFor(root, { globalRules: [pathRule("/Secret.txt")] });
    assert.equal(await status(resolveScoped(deny, "/allow/../Secret.txt", "read")), 403);
    assert.equal(await status(resolveScoped(deny, "/secret.TXT", "read")), 200);
    assert.equal(
      await status(
        resolveScoped(
          ctxFor(root, { globalRules: [pathRule("/Secret.txt")], foldCase: true }),
          "/secret.TXT",
          "read",
        ),
      ),
      403,
    );
    const hidden = ctxFor(root, { hideDotfiles: true });
    assert.equal(await status(resolveScoped(hidden, "/.git", "read")), 403);
    assert.equal(await status(resolveScoped(hidden, "/.git/config", "read")), 403);
    assert.equal(await status(resolveScoped(ctxFor(root), "/.git/config", "read")), 200);
  });
});

Deno.test("resolveScoped() refuses symlinks that leave the scope", async () => {
  await withTempRoot(async ({ dir }) => {
    const root = `${dir}/srv`;
    await makeTree(dir, { "srv/real/f.txt": "in", "srvother/secret.txt": "secret" });
    await Deno.symlink(`${dir}/srvother`, `${root}/escape`);
    await Deno.symlink(`${root}/real`, `${root}/link`);
    await Deno.symlink("../srvother/secret.txt", `${root}/rel-escape`);
    const ctx = ctxFor(root);
    assert.equal(await status(resolveScoped(ctx, "/escape", "read")), 403);
    assert.equal(await status(resolveScoped(ctx, "/escape/secret.txt", "read")), 403, "ancestor link");
    assert.equal(await status(resolveScoped(ctx, "/rel-escape", "read")), 403, "relative final link");
    const ok = await resolveScoped(ctx, "/link/f.txt", "read");
    assert.equal(ok.real, `${root}/real/f.txt`);
    assert.equal(await Deno.readTextFile(ok.real), "in");
    const link = await resolveScoped(ctx, "/link", "read");
    assert.equal(link.path, `${root}/link`);
    assert.equal(link.real, `${root}/real`);
    assert.ok(link.lstat?.isSymlink);
    assert.ok(link.stat?.isDirectory);
    const created = await resolveScoped(ctx, "/newfile.txt", "create");
    assert.equal(created.lstat, null);
    assert.equal(created.real, `${root}/newfile.txt`);
  });
});

Deno.test("resolveScoped() allows everything under a scope of / (no spurious 403)", async () => {
  const ctx = ctxFor("/");
  const p = await resolveScoped(ctx, "/etc/hostname", "read");
  assert.ok(p.real.startsWith("/etc/"));
});

Deno.test("resolveScoped() refuses a dangling link whose target is outside", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await Deno.symlink(`${outside}/created.txt`, `${root}/evil`);
    assert.equal(await status(resolveScoped(ctxFor(root), "/evil", "create")), 403);
    assert.equal(await exists(`${outside}/created.txt`), false);
    // A dangling link that stays inside is allowed, and points where a write would land.
    await Deno.symlink("later.txt", `${root}/inside`);
    const p = await resolveScoped(ctxFor(root), "/inside", "create");
    assert.equal(p.stat, null);
    assert.equal(p.real, `${root}/later.txt`);
  });
});

Deno.test("resolveScoped() refuses a relative dangling link under an escaping folder link", async () => {
  await withTempRoot(async ({ dir, root, outside }) => {
    await Deno.symlink(outside, `${root}/m`);
    await Deno.symlink("../escaped", `${outside}/evil`);
    assert.equal(await status(resolveScoped(ctxFor(root), "/m/evil", "create")), 403);
    // Even a relative dangling link inside the scope cannot climb out.
    await Deno.symlink("../escaped", `${root}/climb`);
    assert.equal(await status(resolveScoped(ctxFor(root), "/climb", "create")), 403);
    assert.equal(await exists(`${dir}/escaped`), false);
  });
});

Deno.test("resolveScoped() follows chains of links and refuses loops", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(root, { "t/f.txt": "x" });
    await Deno.symlink("t", `${root}/l1`);
    await Deno.symlink("l1", `${root}/l2`);
    await Deno.symlink(`${outside}`, `${root}/out`);
    await Deno.symlink("out/../base/t", `${root}/l3`);
    assert.equal((await resolveScoped(ctxFor(root), "/l2/f.txt", "read")).real, `${root}/t/f.txt`);
    // out/.. is resolved physically: outside/.. = the temp dir, then base/t: inside again.
    assert.equal((await resolveScoped(ctxFor(root), "/l3/f.txt", "read")).real, `${root}/t/f.txt`);
    await Deno.symlink("loop2", `${root}/loop1`);
    await Deno.symlink("loop1", `${root}/loop2`);
    assert.equal(await status(resolveScoped(ctxFor(root), "/loop1/x", "create")), 403);
    assert.equal(await status(resolveScoped(ctxFor(root), "/loop1", "create")), 403);
  });
});

Deno.test("a re-rooted (share) gate confines to the shared folder and sees owner rules", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, {
      "shared/ok.txt": "ok",
      "shared/private/secret.txt": "s",
      "private/secret.txt": "s",
    });
    await Deno.symlink(`${root}/private`, `${root}/shared/link`);
    const ctx = ctxFor(root, { base: "/shared", rules: [pathRule("/shared/private")] });
    assert.equal(await status(resolveScoped(ctx, "/link/secret.txt", "read")), 403);
    assert.equal(
      await status(resolveScoped(ctx, "/private/secret.txt", "read")),
      403,
      "owner rule on owner path",
    );
    const ok = await resolveScoped(ctx, "/ok.txt", "read");
    assert.equal(ok.vpath, "/ok.txt");
    assert.equal(ok.rulePath, "/shared/ok.txt");
    await Deno.writeTextFile(`${root}/outer.txt`, "owner file");
    const climb = await resolveScoped(ctx, "/../outer.txt", "read");
    assert.equal(climb.real, `${root}/shared/outer.txt`, "cannot climb out of the share");
    assert.equal(climb.lstat, null);
  });
});

Deno.test("followExternalSymlinks follows escaping links", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(outside, { "secret.txt": "secret" });
    await Deno.symlink(outside, `${root}/escape`);
    assert.equal(await status(resolveScoped(ctxFor(root), "/escape/secret.txt", "read")), 403);
    const p = await resolveScoped(
      ctxFor(root, { followExternalSymlinks: true }),
      "/escape/secret.txt",
      "read",
    );
    assert.equal(await Deno.readTextFile(p.real), "secret");
  });
});

Deno.test("scopedChild() drops denied, hidden and escaping children", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(root, { "d/a.txt": "a", "d/.h": "h", "d/deny.txt": "x" });
    await Deno.symlink(outside, `${root}/d/out`);
    const ctx = ctxFor(root, { hideDotfiles: true, rules: [pathRule("/d/deny.txt")] });
    const dir = await resolveScoped(ctx, "/d", "read");
    assert.ok(await scopedChild(dir, "a.txt"));
    assert.equal(await scopedChild(dir, ".h"), null);
    assert.ok(await scopedChild(dir, ".h", { ignoreHidden: true }));
    assert.equal(await scopedChild(dir, "deny.txt"), null);
    assert.equal(await scopedChild(dir, "out"), null);
    assert.equal(await scopedChild(dir, ".."), null);
    assert.equal(await scopedChild(dir, "missing"), null);
    assert.ok(await scopedChild(dir, "missing", { allowMissing: true }));
    assert.equal(await isConfinedLink(dir.confinement, "/d/out"), false);
  });
});

Deno.test("resolveScoped() reports a missing scope folder as 404", async () => {
  await withTempRoot(async ({ root }) => {
    await assert.rejects(resolveScoped(ctxFor(root, { scope: "/nope" }), "/", "read"), NotFoundError);
    await assert.rejects(
      resolveScoped(ctxFor(root, { rules: [pathRule("/")] }), "/x", "read"),
      ForbiddenError,
    );
  });
});

Deno.test("resolveScoped() applies rules where a symlink really leads (stricter than upstream)", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "private/secret.txt": "s", "pub/ok.txt": "ok", ".dot/x.txt": "x" });
    await Deno.symlink("private", `${root}/alias`);
    await Deno.symlink("private/secret.txt", `${root}/file-alias`);
    await Deno.symlink(".dot", `${root}/dot-alias`);
    const ctx = ctxFor(root, { rules: [pathRule("/private")], hideDotfiles: true });
    assert.equal(
      await status(resolveScoped(ctx, "/alias/secret.txt", "read")),
      403,
      "ancestor link into a denied folder",
    );
    assert.equal(await status(resolveScoped(ctx, "/alias", "read")), 403);
    assert.equal(await status(resolveScoped(ctx, "/file-alias", "read")), 403);
    assert.equal(
      await status(resolveScoped(ctx, "/dot-alias/x.txt", "read")),
      403,
      "link into a hidden folder",
    );
    const root_ = await resolveScoped(ctx, "/", "read");
    assert.equal(await scopedChild(root_, "alias"), null);
    assert.equal(await scopedChild(root_, "file-alias"), null);
    assert.equal(await status(resolveScoped(ctx, "/pub/ok.txt", "read")), 200);
  });
});

Deno.test("childVisibility() decides exactly like isVisible() on each child", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "d/x/": "", ".h/": "" });
    const names = ["a", "ab", ".a", "x", "X", "b.txt", "1", ".", "é", "a b"];
    const rules = [pathRule("/d/a"), pathRule("/d/x", true), regexRule("\\.txt$"), pathRule("/D/X")];
    for (
      const options of [{}, { hideDotfiles: true }, { rules }, { rules, hideDotfiles: true, foldCase: true }]
    ) {
      for (const base of [undefined, "/d"]) {
        const ctx = ctxFor(root, { ...options, base, globalRules: [pathRule("/d/ab")] });
        for (const dir of base ? ["/", "/x"] : ["/", "/d", "/d/x", "/.h"]) {
          const conf = (await resolveWalkBase(ctx, dir)).confinement;
          const v = childVisibility(conf, dir);
          for (const name of names) {
            const got = !v.none && !(v.hideDots && name.startsWith(".")) && (v.allowed?.(name) ?? true);
            const want = isVisible(conf, joinVpath(dir, name));
            assert.equal(got, want, `${JSON.stringify(options)} base ${base} ${dir} ${name}`);
          }
        }
      }
    }
  });
});

Deno.test("scopedParent(), scopedTempSibling() and resolveWalkBase() resolve alike in both link modes", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(root, { "d/e/f.txt": "x" });
    await makeTree(outside, { "o.txt": "o" });
    await Deno.symlink(outside, `${root}/d/out`);
    for (const followExternalSymlinks of [false, true]) {
      const ctx = ctxFor(root, { followExternalSymlinks, rules: [pathRule("/d/e")] });
      const base = await resolveWalkBase(ctx, "/d/e/f.txt/");
      assert.deepEqual([base.vpath, base.trailingSlash, base.real], [
        "/d/e/f.txt",
        true,
        `${root}/d/e/f.txt`,
      ]);
      const parent = await scopedParent(base);
      assert.deepEqual([parent.vpath, parent.real, parent.stat?.isDirectory], ["/d/e", `${root}/d/e`, true]);
      assert.equal((await scopedParent(await scopedParent(parent))).vpath, "/");
      const temp = scopedTempSibling(base, `${root}/d/e/.tmp-1`);
      assert.deepEqual([temp.vpath, temp.real, temp.lstat], ["/d/e/.tmp-1", `${root}/d/e/.tmp-1`, null]);
      const out = await status(resolveWalkBase(ctx, "/d/out/o.txt"));
      assert.equal(out, followExternalSymlinks ? 200 : 403, `follow ${followExternalSymlinks}`);
    }
  });
});

Deno.test("a scope that is replaced by a link never lets a path out of both its old and new place", async () => {
  await withTempRoot(async ({ root, outside, dir }) => {
    await makeTree(root, { "s/top.txt": "old", "s/sub/in.txt": "old-in" });
    await makeTree(outside, { "top.txt": "new", "sub/in.txt": "new-in" });
    await makeTree(dir, { "secret/key.txt": "secret" });
    await Deno.symlink(`${dir}/secret`, `${outside}/esc`);
    const ctx = () => ctxFor(root, { scope: "/s" });
    assert.equal((await resolveScoped(ctx(), "/top.txt", "read")).real, `${root}/s/top.txt`);
    // The scope folder moves away and a link to another folder takes its name (the new scope on disk).
    await Deno.rename(`${root}/s`, `${root}/s-old`);
    await Deno.symlink(outside, `${root}/s`);
    for (const vpath of ["/top.txt", "/sub/in.txt", "/esc/key.txt", "/sub/../esc/key.txt"]) {
      // Whether or not the scope's real path was remembered, the answer is a refusal or a file of the new scope.
      const got = await resolveScoped(ctx(), vpath, "read").then((p) => p.real, (e) => e);
      if (got instanceof HttpError) {
        assert.equal(got.status, 403, vpath);
        continue;
      }
      const physical = await Deno.realPath(got);
      assert.ok(
        physical.startsWith(`${outside}/`) && !physical.startsWith(`${dir}/secret`),
        `${vpath} → ${got}`,
      );
      assert.ok((await Deno.readTextFile(got)).startsWith("new"), vpath);
    }
  });
});

Deno.test("a missing scope is not remembered: created, it answers at once", async () => {
  await withTempRoot(async ({ root }) => {
    const ctx = () => ctxFor(root, { scope: "/later" });
    await assert.rejects(resolveScoped(ctx(), "/", "read"), NotFoundError);
    await makeTree(root, { "later/f.txt": "f" });
    assert.equal((await resolveScoped(ctx(), "/f.txt", "read")).real, `${root}/later/f.txt`);
  });
});

Deno.test("resolveScoped() looks a request's path up without async file-system calls (no worker hand-off)", async () => {
  await withTempRoot(async ({ root }) => {
    await makeTree(root, { "a/b/f.txt": "x" });
    await Deno.symlink(`${root}/a/b/f.txt`, `${root}/link.txt`);
    const ctx = ctxFor(root);
    await resolveScoped(ctx, "/a/b/f.txt", "download"); // warms the scope's remembered real path
    const lstat = Deno.lstat;
    const realPath = Deno.realPath;
    const refuse = () => {
      throw new Error("async file-system call in the gate");
    };
    Object.assign(Deno, { lstat: refuse, realPath: refuse });
    try {
      const fresh = ctxFor(root);
      assert.equal((await resolveScoped(fresh, "/a/b/f.txt", "download")).stat?.size, 1);
      assert.equal((await resolveScoped(fresh, "/a/missing.txt", "read")).lstat, null);
      assert.equal((await resolveScoped(fresh, "/", "read")).stat?.isDirectory, true);
    } finally {
      Object.assign(Deno, { lstat, realPath });
    }
    // A symlink still resolves (its target walk may be async) and stays confined.
    assert.equal((await resolveScoped(ctx, "/link.txt", "download")).real, `${root}/a/b/f.txt`);
  });
});

Deno.test("a scope that leads out of the files root through a link is 403 and logged with the user's name", async () => {
  await withTempRoot(async ({ root, outside }) => {
    await makeTree(outside, { "secret.txt": "s" });
    await Deno.symlink(outside, `${root}/away`);
    const lines: string[] = [];
    const previous = setLogSink((level, line) => lines.push(`${level} ${line}`));
    try {
      const ctx = ctxFor(root, { scope: "/away" });
      ctx.user.username = "mallory";
      await assert.rejects(
        resolveScoped(ctx, "/secret.txt", "read"),
        (err: unknown) => err instanceof ForbiddenError && err.code === "scope_outside_root",
      );
    } finally {
      setLogSink(previous);
    }
    assert.ok(lines.some((l) => l.startsWith("warn") && l.includes('"mallory"')), lines.join("\n"));
  });
});
