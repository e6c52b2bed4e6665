import assert from "node:assert/strict";
import { ForbiddenError } from "../errors.ts";
import type { EventHooks, HookEvent } from "../hooks.ts";
import { extractRequest, tarOf } from "./_testing.ts";
import { DEFAULT_EXTRACT_LIMITS, planExtract, runExtract } from "./mod.ts";
import { EXTRACT_GC_WORK } from "./run.ts";
import { withGcStub } from "../_young_gc_testing.ts";

Deno.test("runExtract() fires the upload hooks for every created file, and a failing before hook stops it", async () => {
  const root = await Deno.makeTempDir();
  try {
    const calls: string[] = [];
    let refuse = "";
    const hooks: EventHooks = {
      before: (event: HookEvent, ctx) => {
        if (refuse && ctx.file.endsWith(refuse)) {
          return Promise.reject(new ForbiddenError("hook_failed", "refused by hook"));
        }
        calls.push(`before ${event} ${ctx.file.slice(root.length)}`);
        return Promise.resolve();
      },
      after: (event: HookEvent, ctx) => {
        calls.push(`after ${event} ${ctx.file.slice(root.length)}`);
        return Promise.resolve();
      },
    };
    const req = extractRequest(root, hooks);
    await Deno.writeFile(`${root}/t.tar`, tarOf([{ name: "d", type: "5" }, { name: "d/a.txt", data: "a" }]));
    const plan = await planExtract(req, "/t.tar", { conflict: "skip", limits: DEFAULT_EXTRACT_LIMITS });
    const events = await Array.fromAsync(runExtract(plan));
    assert.deepEqual(events.at(-1), { type: "done", files: 1, folders: 1, skipped: 0, bytes: 1 });
    assert.deepEqual(calls, ["before upload /d/a.txt", "after upload /d/a.txt"]);
    refuse = "a.txt";
    const again = await planExtract(req, "/t.tar", { conflict: "replace", limits: DEFAULT_EXTRACT_LIMITS });
    const failed = await Array.fromAsync(runExtract(again));
    assert.deepEqual(failed.at(-1), { type: "error", status: 403, message: "refused by hook" });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("runExtract() asks for young-generation collections as it writes many entries, none for a few", async () => {
  const root = await Deno.makeTempDir();
  try {
    const req = extractRequest(root);
    // Entries of 1 KiB: together some MiB of work, each far below EXTRACT_GC_WORK on its own.
    const data = "x".repeat(1024);
    const many = Array.from({ length: Math.ceil((4 * EXTRACT_GC_WORK) / (16 * 1024)) }, (_, i) => ({
      name: `m/f${i}.txt`,
      data,
    }));
    await Deno.writeFile(`${root}/many.tar`, tarOf(many));
    await Deno.writeFile(`${root}/few.tar`, tarOf([{ name: "f/a.txt", data }, { name: "f/b.txt", data }]));
    await withGcStub(async (calls) => {
      const plan = await planExtract(req, "/many.tar", { conflict: "skip", limits: DEFAULT_EXTRACT_LIMITS });
      const events = await Array.fromAsync(runExtract(plan));
      assert.equal(events.at(-1)?.type, "done");
      assert.ok(calls.length >= 2, `collections: ${calls.length}`);
      assert.ok(calls.every((c) => JSON.stringify(c) === '{"type":"minor"}'));
      calls.length = 0;
      const few = await planExtract(req, "/few.tar", { conflict: "skip", limits: DEFAULT_EXTRACT_LIMITS });
      assert.equal((await Array.fromAsync(runExtract(few))).at(-1)?.type, "done");
      assert.deepEqual(calls, []);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** Moves `path` aside and puts a link to `target` in its place (a swap after the gate's check). */
async function swapForLink(path: string, target: string): Promise<void> {
  await Deno.rename(path, `${path}.moved`);
  await Deno.symlink(target, path);
}

Deno.test("runExtract() of an archive swapped for a link to an outside archive after the plan reads nothing of it", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir());
  try {
    const root = `${base}/root`;
    await Deno.mkdir(root);
    await Deno.writeFile(`${root}/t.tar`, tarOf([{ name: "a.txt", data: "a" }]));
    await Deno.writeFile(`${base}/secret.tar`, tarOf([{ name: "secret.txt", data: "SECRET" }]));
    const plan = await planExtract(extractRequest(root), "/t.tar", {
      conflict: "skip",
      limits: DEFAULT_EXTRACT_LIMITS,
    });
    await swapForLink(`${root}/t.tar`, `${base}/secret.tar`);
    const events = await Array.fromAsync(runExtract(plan));
    assert.deepEqual(events.at(-1), {
      type: "error",
      status: 403,
      message: "Path changed into a link since it was checked",
    });
    assert.equal(await Deno.lstat(`${root}/secret.txt`).then(() => true, () => false), false);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("runExtract() into a folder swapped for a link to outside (after the entry's check) writes nothing there", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir());
  try {
    const root = `${base}/root`;
    await Deno.mkdir(`${root}/d`, { recursive: true });
    await Deno.mkdir(`${base}/outside`);
    // The before hook runs after the gate checked the entry: the swap lands between the check and the writes.
    const hooks: EventHooks = {
      before: () => swapForLink(`${root}/d`, `${base}/outside`),
      after: () => Promise.resolve(),
    };
    await Deno.writeFile(`${root}/t.tar`, tarOf([{ name: "d/new/a.txt", data: "a" }]));
    const plan = await planExtract(extractRequest(root, hooks), "/t.tar", {
      conflict: "skip",
      limits: DEFAULT_EXTRACT_LIMITS,
    });
    const events = await Array.fromAsync(runExtract(plan));
    assert.equal(events.at(-1)?.type, "error");
    assert.equal((events.at(-1) as { status: number }).status, 403);
    assert.deepEqual(await Array.fromAsync(Deno.readDir(`${base}/outside`)), []);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
