/**
 * Writes a planned import. Each user (record + indexes) and each share (record + owner index) is one entity
 * group, committed whole; groups are batched into atomics under KV's limits, and a batch that loses a race is
 * retried group by group, so nothing is ever half-written and a re-run picks up what is missing.
 */
import { sessions, shares as shareStore, users as userStore } from "../storage/mod.ts";
import { notifyStateWrite } from "../storage/changes.ts";
import type { DecodedShare, DecodedUser } from "./fb_decode.ts";
import type { Planned, ShareAction, UserAction } from "./plan.ts";

// KV allows 100 checks and 1000 mutations per atomic, and about 800 KB in all. A user group has 2 or 3 checks
// and up to 5 mutations; a share group 1 check and up to 3 mutations.
const USERS_PER_BATCH = 33;
const SHARES_PER_BATCH = 100;
const BYTES_PER_BATCH = 400_000;

type Group = (op: Deno.AtomicOperation) => Deno.AtomicOperation;

/** Outcome of writing: groups written, and the ones that failed with why. */
export interface ApplyResult {
  written: number;
  failed: string[];
}

type Labeled = { label: string; size: number; add: Group };

function batches(groups: Labeled[], perBatch: number): Labeled[][] {
  const out: Labeled[][] = [];
  let i = 0;
  while (i < groups.length) {
    const batch = [];
    let bytes = 0;
    while (
      i < groups.length && batch.length < perBatch &&
      (batch.length === 0 || bytes + groups[i].size < BYTES_PER_BATCH)
    ) {
      bytes += groups[i].size;
      batch.push(groups[i++]);
    }
    out.push(batch);
  }
  return out;
}

async function commitBatch(kv: Deno.Kv, batch: Labeled[], result: ApplyResult): Promise<void> {
  let op = kv.atomic();
  for (const g of batch) op = g.add(op);
  if ((await op.commit()).ok) {
    result.written += batch.length;
    return;
  }
  // Someone else wrote one of these keys meanwhile: find which, commit the others.
  for (const g of batch) {
    if ((await g.add(kv.atomic()).commit()).ok) result.written++;
    else result.failed.push(`${g.label}: changed while importing; run the import again`);
  }
}

// Batches touch distinct keys, so a few commits in flight at once keep KV busy while the next one is built.
const IN_FLIGHT = 4;

async function commitGroups(kv: Deno.Kv, groups: Labeled[], perBatch: number): Promise<ApplyResult> {
  const result: ApplyResult = { written: 0, failed: [] };
  const queue = batches(groups, perBatch);
  let next = 0;
  const worker = async () => {
    while (next < queue.length) await commitBatch(kv, queue[next++], result);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  // Imported users replace cached copies (putUserOps bumped the generation for other instances).
  notifyStateWrite(kv);
  return result;
}

/** Deletes the users a `replace` action displaces, with their sessions and shares. */
export async function removeDisplaced(kv: Deno.Kv, plan: Planned<DecodedUser, UserAction>[], now: number) {
  for (const p of plan) {
    if (p.action.kind === "update") await sessions.deleteUserSessions(kv, p.item.user.id);
    if (p.action.kind !== "replace") continue;
    for (const id of p.action.remove) {
      for (const s of await shareStore.listShares(kv, now, { userId: id })) {
        await shareStore.deleteShare(kv, s);
      }
      await sessions.deleteUserSessions(kv, id);
      await userStore.deleteUser(kv, id).catch(() => {});
    }
  }
}

/** Writes the users planned as create or update (update bumps the session epoch: old tokens stop working). */
export function writeUsers(kv: Deno.Kv, plan: Planned<DecodedUser, UserAction>[]): Promise<ApplyResult> {
  const groups = [];
  for (const { item, action } of plan) {
    const u = item.user;
    const label = `user ${u.id} ${JSON.stringify(u.username)}`;
    const size = JSON.stringify(u).length;
    if (action.kind === "create") {
      groups.push({
        label,
        size,
        add: (op: Deno.AtomicOperation) =>
          userStore.putUserOps(op, u, { record: null, name: null, derivedScope: action.derivedScope }),
      });
    } else if (action.kind === "update") {
      const next = { ...u, sessionEpoch: action.epoch + 1 };
      groups.push({
        label,
        size,
        add: (op: Deno.AtomicOperation) =>
          userStore.putUserOps(op, next, { record: action.record, name: action.name }),
      });
    }
  }
  return commitGroups(kv, groups, USERS_PER_BATCH);
}

/** Writes the shares planned as create or update. */
export function writeShares(kv: Deno.Kv, plan: Planned<DecodedShare, ShareAction>[]): Promise<ApplyResult> {
  const groups = [];
  for (const { item, action } of plan) {
    const s = item.share;
    const size = JSON.stringify(s).length;
    if (action.kind === "create") {
      groups.push({
        label: `share ${s.hash}`,
        size,
        add: (op: Deno.AtomicOperation) => shareStore.putShareOps(op, s, { versionstamp: null }),
      });
    } else if (action.kind === "update") {
      groups.push({
        label: `share ${s.hash}`,
        size,
        add: (op: Deno.AtomicOperation) =>
          shareStore.putShareOps(op, s, {
            versionstamp: action.versionstamp,
            previousOwner: action.previousOwner,
          }),
      });
    }
  }
  return commitGroups(kv, groups, SHARES_PER_BATCH);
}
