import assert from "node:assert/strict";
import { ctxFor, makeTree, pathRule } from "../fs/_testing.ts";
import { resolveScoped } from "../fs/gate.ts";
import type { StoredUser } from "../types.ts";
import {
  deleteTrashItem,
  emptyTrash,
  listTrash,
  moveToTrash,
  purgeTrash,
  restoreTrashItem,
  trashBytesOf,
  type TrashDeps,
  trashDirOf,
} from "./mod.ts";
import { moveAnywhere, storePlace } from "./move.ts";

const DAY = 86_400_000;

async function fixture(uploadDir?: string) {
  const dir = await Deno.makeTempDir({ prefix: "trash-" });
  const root = `${dir}/root`;
  await makeTree(root, { "a.txt": "hello", "docs/b.txt": "12345678", "docs/sub/c.txt": "x" });
  const kv = await Deno.openKv(":memory:");
  let clock = 1_000_000;
  const deps: TrashDeps = {
    config: { uploadDir: uploadDir ?? `${dir}/uploads`, trashDays: 30 },
    kv,
    now: () => clock,
  };
  const gate = ctxFor(root);
  const user = { id: 7, ...gate.user } as unknown as StoredUser;
  const req = { gate: { ...gate, user }, user };
  return {
    dir,
    root,
    deps,
    req,
    advance: (ms: number) => clock += ms,
    trash: async (vpath: string) => moveToTrash(deps, user, await resolveScoped(req.gate, vpath, "delete")),
    async [Symbol.asyncDispose]() {
      kv.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

Deno.test("moveToTrash() moves a folder out of the scope and lists it with its size", async () => {
  await using f = await fixture();
  const record = await f.trash("/docs");
  assert.equal(await exists(`${f.root}/docs`), false);
  assert.equal(await exists(`${trashDirOf(f.deps.config)}/${record.id}/docs/sub/c.txt`), true);
  const items = await listTrash(f.deps, f.req);
  assert.equal(items.length, 1);
  assert.deepEqual(
    { path: items[0].path, name: items[0].name, isDir: items[0].isDir, size: items[0].size },
    { path: "/docs", name: "docs", isDir: true, size: 9 },
  );
  assert.equal(items[0].expiresAt, new Date(1_000_000 + 30 * DAY).toISOString());
  assert.equal(await trashBytesOf(f.deps.kv, 7), 9);
});

Deno.test("restoreTrashItem() puts an item back, making missing parents", async () => {
  await using f = await fixture();
  const record = await f.trash("/docs/sub/c.txt");
  await Deno.remove(`${f.root}/docs`, { recursive: true });
  assert.equal(
    await restoreTrashItem(f.deps, f.req, record.id, { override: false, rename: false }),
    "/docs/sub/c.txt",
  );
  assert.equal(await Deno.readTextFile(`${f.root}/docs/sub/c.txt`), "x");
  assert.deepEqual(await listTrash(f.deps, f.req), []);
  assert.equal(await exists(`${trashDirOf(f.deps.config)}/${record.id}`), false);
});

Deno.test("restoreTrashItem() answers an occupied origin with 409, or keeps both", async () => {
  await using f = await fixture();
  const record = await f.trash("/a.txt");
  await Deno.writeTextFile(`${f.root}/a.txt`, "new");
  await assert.rejects(
    restoreTrashItem(f.deps, f.req, record.id, { override: false, rename: false }),
    (e: Error & { status?: number }) => e.status === 409,
  );
  assert.equal(
    await restoreTrashItem(f.deps, f.req, record.id, { override: false, rename: true }),
    "/a(1).txt",
  );
  assert.equal(await Deno.readTextFile(`${f.root}/a(1).txt`), "hello");
  assert.equal(await Deno.readTextFile(`${f.root}/a.txt`), "new");
});

Deno.test("restoreTrashItem() with override replaces, and the replaced file goes to the trash", async () => {
  await using f = await fixture();
  const record = await f.trash("/a.txt");
  await Deno.writeTextFile(`${f.root}/a.txt`, "new");
  assert.equal(await restoreTrashItem(f.deps, f.req, record.id, { override: true, rename: false }), "/a.txt");
  assert.equal(await Deno.readTextFile(`${f.root}/a.txt`), "hello");
  const items = await listTrash(f.deps, f.req);
  assert.deepEqual(items.map((i) => [i.name, i.size]), [["a.txt", 3]]);
  await Deno.mkdir(`${f.root}/b.txt`);
  const file = await f.trash("/a.txt");
  await Deno.rename(`${f.root}/b.txt`, `${f.root}/a.txt`);
  await assert.rejects(
    restoreTrashItem(f.deps, f.req, file.id, { override: true, rename: false }),
    (e: Error & { status?: number }) => e.status === 409,
  );
});

Deno.test("restore needs create, and replacing needs modify", async () => {
  await using f = await fixture();
  const record = await f.trash("/a.txt");
  const noCreate = { ...f.req.user, perm: { ...f.req.user.perm, create: false } };
  await assert.rejects(
    restoreTrashItem(f.deps, { gate: { ...f.req.gate, user: noCreate }, user: noCreate }, record.id, {
      override: false,
      rename: false,
    }),
    (e: Error & { status?: number }) => e.status === 403,
  );
  await Deno.writeTextFile(`${f.root}/a.txt`, "new");
  const noModify = { ...f.req.user, perm: { ...f.req.user.perm, modify: false } };
  await assert.rejects(
    restoreTrashItem(f.deps, { gate: { ...f.req.gate, user: noModify }, user: noModify }, record.id, {
      override: true,
      rename: false,
    }),
    (e: Error & { status?: number }) => e.status === 403,
  );
  assert.equal(await Deno.readTextFile(`${f.root}/a.txt`), "new");
});

Deno.test("the trash shows only the user's own items, and none whose origin a rule now denies", async () => {
  await using f = await fixture();
  const record = await f.trash("/a.txt");
  await f.trash("/docs");
  const other = { ...f.req.user, id: 8 };
  assert.deepEqual(await listTrash(f.deps, { gate: { ...f.req.gate, user: other }, user: other }), []);
  await assert.rejects(
    deleteTrashItem(f.deps, { gate: { ...f.req.gate, user: other }, user: other }, record.id),
    (e: Error & { status?: number }) => e.status === 404,
  );
  const ruled = { ...f.req.user, rules: [pathRule("/docs")] };
  const req = { gate: { ...f.req.gate, user: ruled }, user: ruled };
  assert.deepEqual((await listTrash(f.deps, req)).map((i) => i.name), ["a.txt"]);
  const docs = (await listTrash(f.deps, f.req)).find((i) => i.name === "docs")!;
  await assert.rejects(
    restoreTrashItem(f.deps, req, docs.id, { override: false, rename: false }),
    (e: Error & { status?: number }) => e.status === 404,
  );
});

Deno.test("purgeTrash() removes items older than --trash-days only", async () => {
  await using f = await fixture();
  const old = await f.trash("/a.txt");
  f.advance(20 * DAY);
  const young = await f.trash("/docs");
  f.advance(10 * DAY - 1);
  assert.equal(await purgeTrash(f.deps), 0);
  f.advance(1);
  assert.equal(await purgeTrash(f.deps), 1);
  assert.deepEqual((await listTrash(f.deps, f.req)).map((i) => i.id), [young.id]);
  assert.equal(await exists(`${trashDirOf(f.deps.config)}/${old.id}`), false);
  assert.equal(await exists(`${trashDirOf(f.deps.config)}/${young.id}`), true);
});

Deno.test("purgeTrash() with --trash-days 0 empties the trash, and removes old folders without a record", async () => {
  await using f = await fixture();
  await f.trash("/a.txt");
  const orphan = `${trashDirOf(f.deps.config)}/${crypto.randomUUID()}`;
  await Deno.mkdir(orphan);
  await Deno.utime(orphan, 0, 0);
  f.advance(DAY);
  f.deps.config = { ...f.deps.config, trashDays: 0 };
  assert.equal(await purgeTrash(f.deps), 1);
  assert.equal(await exists(orphan), false);
});

Deno.test("emptyTrash() needs delete and removes every item of the user", async () => {
  await using f = await fixture();
  await f.trash("/a.txt");
  await f.trash("/docs");
  const noDelete = { ...f.req.user, perm: { ...f.req.user.perm, delete: false } };
  await assert.rejects(emptyTrash(f.deps, noDelete), (e: Error & { status?: number }) => e.status === 403);
  assert.equal(await emptyTrash(f.deps, f.req.user), 2);
  assert.deepEqual(await listTrash(f.deps, f.req), []);
  assert.equal(await trashBytesOf(f.deps.kv, 7), 0);
});

Deno.test("moveAnywhere() copies then removes across file systems, keeping links as links", async () => {
  let shm: string;
  try {
    shm = await Deno.makeTempDir({ dir: "/dev/shm", prefix: "trash-" });
  } catch {
    return; // No tmpfs here: nothing to cross.
  }
  await using f = await fixture(shm);
  try {
    await Deno.symlink("b.txt", `${f.root}/docs/link`);
    const record = await f.trash("/docs");
    const moved = `${shm}/.trash/${record.id}/docs`;
    assert.equal(await Deno.readTextFile(`${moved}/sub/c.txt`), "x");
    assert.equal(await Deno.readLink(`${moved}/link`), "b.txt");
    assert.equal(await exists(`${f.root}/docs`), false);
    await restoreTrashItem(f.deps, f.req, record.id, { override: false, rename: false });
    assert.equal(await Deno.readTextFile(`${f.root}/docs/b.txt`), "12345678");
    await assert.rejects(
      moveAnywhere(storePlace(`${f.root}/missing`), storePlace(`${shm}/x`)),
      Deno.errors.NotFound,
    );
  } finally {
    await Deno.remove(shm, { recursive: true });
  }
});

/** Moves `path` aside and puts a link to `target` in its place (a swap after the gate's check). */
async function swapForLink(path: string, target: string): Promise<void> {
  await Deno.rename(path, `${path}.moved`);
  await Deno.symlink(target, path);
}

Deno.test("moveToTrash() of a checked path whose folder became a link to outside moves nothing from there", async () => {
  await using f = await fixture();
  await makeTree(`${f.dir}/outside`, { "sub/c.txt": "SECRET" });
  const checked = await resolveScoped(f.req.gate, "/docs/sub/c.txt", "delete");
  await swapForLink(`${f.root}/docs`, `${f.dir}/outside`);
  await assert.rejects(
    moveToTrash(f.deps, f.req.user, checked),
    (e: Error & { status?: number }) => e.status === 403,
  );
  assert.equal(await Deno.readTextFile(`${f.dir}/outside/sub/c.txt`), "SECRET");
  assert.deepEqual(await listTrash(f.deps, f.req), []);
});

Deno.test("restoreTrashItem() into a folder swapped for a link to outside (after the check) writes nothing there", async () => {
  await using f = await fixture();
  await Deno.mkdir(`${f.dir}/outside`);
  const record = await f.trash("/docs/sub/c.txt");
  await Deno.remove(`${f.root}/docs/sub`, { recursive: true });
  // The before hook runs after the gate checked the origin: the swap lands between the check and the writes.
  const hooks = {
    before: () => swapForLink(`${f.root}/docs`, `${f.dir}/outside`),
    after: () => Promise.resolve(),
  };
  await assert.rejects(
    restoreTrashItem(f.deps, { ...f.req, hooks }, record.id, { override: false, rename: false }),
    (e: Error & { status?: number }) => e.status === 403,
  );
  assert.deepEqual(await Array.fromAsync(Deno.readDir(`${f.dir}/outside`)), []);
  assert.equal(await exists(`${trashDirOf(f.deps.config)}/${record.id}/c.txt`), true);
});
