import assert from "node:assert/strict";
import type { EventHooks, HookEvent } from "../hooks.ts";
import { appendUploadChunk, createUpload, getUploadStatus, terminateUpload } from "./mod.ts";
import { bodyOf, chunk, rejectsWith, uploadFixture } from "./_testing.ts";
import { listUploads } from "./store.ts";

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

Deno.test("an upload in three chunks lands byte-identical, and only at full length", async () => {
  const f = await uploadFixture();
  try {
    const ctx = f.ctx();
    const created = await createUpload(ctx, "/dir/a.txt", { length: "11", override: false });
    assert.deepEqual(created, { vpath: "/dir/a.txt", offset: 0, length: 11, complete: false });
    assert.equal((await appendUploadChunk(ctx, "/dir/a.txt", chunk(0, "hel", "lo"))).offset, 5);
    assert.equal(await exists(`${f.root}/dir/a.txt`), false, "nothing visible before completion");
    assert.deepEqual(await getUploadStatus(ctx, "/dir/a.txt"), {
      vpath: "/dir/a.txt",
      offset: 5,
      length: 11,
      complete: false,
    });
    assert.equal((await appendUploadChunk(ctx, "/dir/a.txt", chunk(5, " wor"))).offset, 9);
    const done = await appendUploadChunk(ctx, "/dir/a.txt", chunk(9, "ld"));
    assert.deepEqual(done, { vpath: "/dir/a.txt", offset: 11, length: 11, complete: true });
    assert.equal(await Deno.readTextFile(`${f.root}/dir/a.txt`), "hello world");
    await rejectsWith(getUploadStatus(ctx, "/dir/a.txt"), 404);
    assert.deepEqual([...Deno.readDirSync(f.uploadDir)], [], "staging emptied");
  } finally {
    await f.close();
  }
});

Deno.test("createUpload() validates everything before creating anything", async () => {
  const f = await uploadFixture();
  try {
    const ctx = f.ctx();
    for (const length of [null, "", "-1", "1.5", "1e3", "0x10", "99999999999999999"]) {
      await rejectsWith(
        createUpload(ctx, "/x.bin", { length, override: false }),
        400,
        "invalid_upload_length",
      );
    }
    await rejectsWith(
      createUpload(f.ctx({ perm: { create: false } }), "/x.bin", { length: "1", override: false }),
      403,
    );
    await Deno.mkdir(`${f.root}/d`);
    await rejectsWith(createUpload(ctx, "/d", { length: "1", override: true }), 400, "target_is_directory");
    await rejectsWith(createUpload(ctx, "/d2/", { length: "1", override: true }), 400, "target_is_directory");
    await rejectsWith(createUpload(ctx, "/", { length: "1", override: true }), 400, "target_is_directory");
    assert.equal(await exists(f.uploadDir), false, "no staging file was created");
    assert.equal(await exists(`${f.root}/x.bin`), false);
    assert.equal(await exists(`${f.root}/d2`), false);
  } finally {
    await f.close();
  }
});

Deno.test("an existing file needs override and modify, and is untouched until the upload completes", async () => {
  const f = await uploadFixture();
  try {
    await Deno.writeTextFile(`${f.root}/keep.txt`, "original");
    await rejectsWith(
      createUpload(f.ctx(), "/keep.txt", { length: "3", override: false }),
      409,
      "target_exists",
    );
    await rejectsWith(
      createUpload(f.ctx({ perm: { modify: false } }), "/keep.txt", { length: "3", override: true }),
      403,
    );
    const ctx = f.ctx();
    await createUpload(ctx, "/keep.txt", { length: "3", override: true });
    await appendUploadChunk(ctx, "/keep.txt", chunk(0, "ne"));
    assert.equal(await Deno.readTextFile(`${f.root}/keep.txt`), "original");
    await rejectsWith(appendUploadChunk(ctx, "/keep.txt", chunk(2, "w!!")), 413);
    assert.equal(await Deno.readTextFile(`${f.root}/keep.txt`), "original");
    await terminateUpload(ctx, "/keep.txt");
    assert.equal(
      await Deno.readTextFile(`${f.root}/keep.txt`),
      "original",
      "terminate never deletes the target",
    );
  } finally {
    await f.close();
  }
});

Deno.test("a file created by someone else during the upload is not replaced without override", async () => {
  const f = await uploadFixture();
  try {
    const ctx = f.ctx();
    await createUpload(ctx, "/race.txt", { length: "4", override: false });
    await Deno.writeTextFile(`${f.root}/race.txt`, "theirs");
    await rejectsWith(appendUploadChunk(ctx, "/race.txt", chunk(0, "mine")), 409, "target_exists");
    assert.equal(await Deno.readTextFile(`${f.root}/race.txt`), "theirs");
    await rejectsWith(getUploadStatus(ctx, "/race.txt"), 404, "upload_not_found");
    assert.deepEqual([...Deno.readDirSync(f.uploadDir)], [], "the failed upload is discarded");
  } finally {
    await f.close();
  }
});

Deno.test("appendUploadChunk() checks content type, offset syntax, range and staleness", async () => {
  const f = await uploadFixture();
  try {
    const ctx = f.ctx();
    await createUpload(ctx, "/c.bin", { length: "4", override: false });
    await rejectsWith(
      appendUploadChunk(ctx, "/c.bin", { ...chunk(0, "ab"), contentType: "text/plain" }),
      415,
    );
    await rejectsWith(appendUploadChunk(ctx, "/c.bin", { ...chunk(0, "ab"), offset: "-1" }), 400);
    await rejectsWith(appendUploadChunk(ctx, "/c.bin", chunk(5, "ab")), 400, "offset_too_large");
    await rejectsWith(appendUploadChunk(ctx, "/other.bin", chunk(0, "ab")), 404);
    await rejectsWith(appendUploadChunk(ctx, "/c.bin", { ...chunk(0, "ab"), contentLength: "5" }), 413);
    await appendUploadChunk(ctx, "/c.bin", chunk(0, "ab"));
    await rejectsWith(appendUploadChunk(ctx, "/c.bin", chunk(0, "ab")), 409, "offset_mismatch");
    assert.equal((await appendUploadChunk(ctx, "/c.bin", chunk(2, ""))).offset, 2, "an empty chunk is fine");
    await appendUploadChunk(ctx, "/c.bin", chunk(2, "cd"));
    assert.equal(await Deno.readTextFile(`${f.root}/c.bin`), "abcd");
  } finally {
    await f.close();
  }
});

Deno.test("uploads belong to their owner; a second user's POST to a live upload is refused", async () => {
  const f = await uploadFixture();
  try {
    await createUpload(f.ctx({ id: 1 }), "/own.bin", { length: "4", override: false });
    const other = f.ctx({ id: 2 });
    await rejectsWith(getUploadStatus(other, "/own.bin"), 404);
    await rejectsWith(appendUploadChunk(other, "/own.bin", chunk(0, "abcd")), 404);
    await rejectsWith(terminateUpload(other, "/own.bin"), 404);
    await rejectsWith(
      createUpload(other, "/own.bin", { length: "4", override: false }),
      409,
      "upload_in_progress",
    );
    // The owner's lease (taken at creation, renewed by every chunk) protects the path, not the upload expiry
    // (an hour here): once it runs out, the other user takes the path over.
    f.clock.now += 9_000;
    await rejectsWith(createUpload(other, "/own.bin", { length: "2", override: false }), 409);
    f.clock.now += 1_001;
    await createUpload(other, "/own.bin", { length: "2", override: false });
    assert.equal((await getUploadStatus(other, "/own.bin")).length, 2, "a stale upload is taken over");
    await rejectsWith(getUploadStatus(f.ctx({ id: 1 }), "/own.bin"), 404, "upload_not_found");
    assert.equal([...Deno.readDirSync(f.uploadDir)].length, 1, "the stale upload's staging file is gone");
  } finally {
    await f.close();
  }
});

Deno.test("a second POST by the same user restarts the upload", async () => {
  const f = await uploadFixture();
  try {
    const ctx = f.ctx();
    await createUpload(ctx, "/re.bin", { length: "4", override: false });
    await appendUploadChunk(ctx, "/re.bin", chunk(0, "ab"));
    await createUpload(ctx, "/re.bin", { length: "3", override: false });
    assert.deepEqual(await getUploadStatus(ctx, "/re.bin"), {
      vpath: "/re.bin",
      offset: 0,
      length: 3,
      complete: false,
    });
    assert.equal([...Deno.readDirSync(f.uploadDir)].length, 1, "old staging file removed");
  } finally {
    await f.close();
  }
});

Deno.test("terminateUpload() needs delete, refuses the root and forgets the staging data", async () => {
  const f = await uploadFixture();
  try {
    const ctx = f.ctx();
    await createUpload(ctx, "/t.bin", { length: "4", override: false });
    await appendUploadChunk(ctx, "/t.bin", chunk(0, "ab"));
    await rejectsWith(terminateUpload(f.ctx({ perm: { delete: false } }), "/t.bin"), 403);
    await rejectsWith(terminateUpload(ctx, "/"), 403);
    await terminateUpload(ctx, "/t.bin");
    await rejectsWith(getUploadStatus(ctx, "/t.bin"), 404);
    await rejectsWith(terminateUpload(ctx, "/t.bin"), 404);
    assert.deepEqual([...Deno.readDirSync(f.uploadDir)], []);
    assert.equal(await exists(`${f.root}/t.bin`), false);
  } finally {
    await f.close();
  }
});

Deno.test("zero-length uploads complete at creation", async () => {
  const f = await uploadFixture();
  try {
    const res = await createUpload(f.ctx(), "/empty.txt", { length: "0", override: false });
    assert.equal(res.complete, true);
    assert.equal((await Deno.stat(`${f.root}/empty.txt`)).size, 0);
    const left = [];
    for await (const e of listUploads(f.kv)) left.push(e);
    assert.deepEqual(left, []);
  } finally {
    await f.close();
  }
});

Deno.test("upload hooks: a failing before hook refuses the upload, a failing after hook is only logged", async () => {
  const calls: string[] = [];
  let failBefore = true;
  const hooks: EventHooks = {
    before(event: HookEvent, ctx) {
      calls.push(`before ${event} ${ctx.file}`);
      return failBefore ? Promise.reject(new Error("hook says no")) : Promise.resolve();
    },
    after(event: HookEvent, ctx) {
      calls.push(`after ${event} ${ctx.file}`);
      return Promise.reject(new Error("after hook broken"));
    },
  };
  const f = await uploadFixture({ hooks });
  try {
    const ctx = f.ctx();
    await assert.rejects(createUpload(ctx, "/h.txt", { length: "2", override: false }), /hook says no/);
    assert.equal(await exists(f.uploadDir), false, "nothing staged");
    failBefore = false;
    await createUpload(ctx, "/h.txt", { length: "2", override: false });
    const res = await appendUploadChunk(ctx, "/h.txt", chunk(0, "hi"));
    assert.equal(res.complete, true);
    assert.equal(await Deno.readTextFile(`${f.root}/h.txt`), "hi");
    assert.deepEqual(calls, [
      `before upload ${f.root}/h.txt`,
      `before upload ${f.root}/h.txt`,
      `after upload ${f.root}/h.txt`,
    ]);
  } finally {
    await f.close();
  }
});

Deno.test("the gate applies: traversal stays in scope, escaping symlinks and rule-hidden paths are refused", async () => {
  const f = await uploadFixture();
  const outside = await Deno.makeTempDir({ prefix: "fboutside-" });
  try {
    await Deno.mkdir(`${f.root}/home`);
    await Deno.symlink(outside, `${f.root}/home/escape_link`);
    const ctx = f.ctx({
      user: {
        scope: "/home",
        hideDotfiles: true,
        rules: [{ regex: false, allow: false, path: "/secret", regexp: null }],
      },
    });
    await rejectsWith(createUpload(ctx, "/escape_link/injected.txt", { length: "2", override: false }), 403);
    await rejectsWith(appendUploadChunk(ctx, "/escape_link/injected.txt", chunk(0, "hi")), 403);
    await rejectsWith(createUpload(ctx, "/secret/x.txt", { length: "2", override: false }), 403);
    await rejectsWith(createUpload(ctx, "/.env", { length: "2", override: false }), 403);
    const up = await createUpload(ctx, "/../../up.txt", { length: "2", override: false });
    assert.equal(up.vpath, "/up.txt");
    await appendUploadChunk(ctx, "/up.txt", { ...chunk(0), body: bodyOf("ok") });
    assert.equal(await Deno.readTextFile(`${f.root}/home/up.txt`), "ok");
    assert.deepEqual([...Deno.readDirSync(outside)], [], "nothing written outside the scope");
    assert.equal(await exists(`${f.dir}/up.txt`), false);
  } finally {
    await f.close();
    await Deno.remove(outside, { recursive: true });
  }
});
