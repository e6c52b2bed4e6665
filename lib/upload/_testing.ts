/** Test fixtures for lib/upload: a temp root + staging dir, a KV store and upload contexts for fake users. */
import assert from "node:assert/strict";
import { HttpError } from "../errors.ts";
import type { EventHooks } from "../hooks.ts";
import { noopHooks } from "../hooks.ts";
import type { Permissions, StoredUser } from "../types.ts";
import { releaseParkedLeases, UploadLeases } from "./lock.ts";
import type { UploadContext, UploadDeps } from "./target.ts";
import { UsageCache } from "../quota.ts";
import { QuotaLedger } from "./reservations.ts";
import { StagingSync } from "./background_sync.ts";

/** A temp world for upload tests. */
export interface UploadFixture {
  dir: string;
  root: string;
  uploadDir: string;
  kv: Deno.Kv;
  deps: UploadDeps;
  /** Current fake time in ms (starts at the real time); tests move it. */
  clock: { now: number };
  ctx(options?: { id?: number; perm?: Partial<Permissions>; user?: Partial<StoredUser> }): UploadContext;
  close(): Promise<void>;
}

const FULL: Permissions = {
  admin: false,
  execute: false,
  create: true,
  rename: false,
  modify: true,
  delete: true,
  share: false,
  download: true,
};

/** Creates the fixture; `kvPath` lets two fixtures share one KV file (restart tests). */
export async function uploadFixture(
  options: { kvPath?: string; dir?: string; hooks?: EventHooks; uploadExpiry?: number } = {},
): Promise<UploadFixture> {
  const dir = options.dir ?? await Deno.makeTempDir({ prefix: "fbupload-" });
  const root = `${dir}/root`;
  const uploadDir = `${dir}/uploads`;
  await Deno.mkdir(root, { recursive: true });
  const kv = await Deno.openKv(options.kvPath ?? ":memory:");
  // Real time to start with: activity is also read from staging file mtimes.
  const clock = { now: Date.now() };
  const deps: UploadDeps = {
    config: { root, uploadDir, uploadExpiry: options.uploadExpiry ?? 3600, followExternalSymlinks: false },
    kv,
    hooks: options.hooks ?? noopHooks,
    now: () => clock.now,
    usage: new UsageCache(),
    leases: new UploadLeases(kv),
    quotaLedger: new QuotaLedger(kv, { now: () => clock.now }),
    stagingSync: new StagingSync(),
  };
  return {
    dir,
    root,
    uploadDir,
    kv,
    deps,
    clock,
    ctx(o = {}) {
      const user = {
        id: o.id ?? 1,
        username: `user${o.id ?? 1}`,
        scope: "/",
        perm: { ...FULL, ...o.perm },
        rules: [],
        hideDotfiles: false,
        ...o.user,
      } as unknown as StoredUser;
      return {
        deps,
        user,
        gate: { root, user, globalRules: [], followExternalSymlinks: false, foldCase: false },
      };
    },
    async close() {
      // Like a graceful shutdown: parked leases are released so another instance need not wait them out.
      await releaseParkedLeases(deps.leases);
      kv.close();
      if (!options.dir) await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** A ReadableStream over byte parts. */
export function bodyOf(...parts: (Uint8Array | string)[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  const list = parts.map((p) => typeof p === "string" ? enc.encode(p) : p);
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < list.length) controller.enqueue(list[i++]);
      else controller.close();
    },
  });
}

/** PATCH options for a chunk at `offset`. */
export function chunk(offset: number, ...parts: (Uint8Array | string)[]) {
  return {
    offset: String(offset),
    contentType: "application/offset+octet-stream",
    body: bodyOf(...parts),
  };
}

/** Runs `fn` with a fresh in-memory KV store, closed afterwards. */
export async function withKv(fn: (kv: Deno.Kv) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  try {
    await fn(kv);
  } finally {
    kv.close();
  }
}

/** Asserts that `p` rejects with an HttpError of `status` (and `code`, when given). */
export async function rejectsWith(p: Promise<unknown>, status: number, code?: string): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof HttpError, `expected HttpError, got ${err}`);
    assert.equal(err.status, status, `status (code ${err.code})`);
    if (code) assert.equal(err.code, code);
    return true;
  });
}
