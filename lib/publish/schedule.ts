/**
 * Durable publish schedules on Deno KV. One record per post (the id is a hash of the post's real path) carries a
 * `version`; scheduling writes the record and enqueues `{ kind: "publish", id, version }` with a delay in the
 * same atomic commit, so a restart before the time still publishes. A delivered message acts only when its
 * version is still the record's and an atomic check-and-mark (`scheduled` → `running`) succeeds: with several
 * instances on one KV, and with KV's at-least-once delivery, a schedule runs once. Reschedule and cancel bump the
 * version, which turns older messages stale.
 */
import { ConflictError, NotFoundError, toHttpError } from "../errors.ts";
import { log } from "../log.ts";
import { keys } from "../storage/keys.ts";
import type { BuildLog, PublishSchedule, ScheduleState } from "../types.ts";
import { whenKvFree } from "../storage/busy.ts";

/** The queue message of a schedule. */
export interface PublishMessage {
  kind: "publish";
  id: string;
  version: number;
}

/** What running a schedule did. */
export interface PublishOutcome {
  /** The build command's exit code and output, when one ran. */
  build?: { code: number; output: string };
}

/** Publishes the post of a schedule (edits the front matter, runs the build); throws HttpErrors. */
export type PublishAct = (schedule: PublishSchedule) => Promise<PublishOutcome>;

/** KV and the clock. */
export interface ScheduleStore {
  kv: Deno.Kv;
  now: () => number;
}

/** Deno KV refuses queue delays over 30 days; later schedules hop through several messages. */
export const MAX_QUEUE_DELAY_MS = 29 * 24 * 3600_000;
/** A message delivered this much before its time is on time (clocks of instances differ a little). */
const EARLY_TOLERANCE_MS = 1000;
/** The tail of the build output that is kept (a KV value holds at most 64 KiB). */
export const MAX_LOG_CHARS = 16 * 1024;
const MAX_RETRIES = 8;

/** The schedule id of a post: a hash of its real path, so a post has one schedule whoever schedules it. */
export async function scheduleIdOf(realPath: string): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(realPath));
  return Array.from(new Uint8Array(hash).slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** True for messages of this module (other features may share the queue). */
export function isPublishMessage(x: unknown): x is PublishMessage {
  const m = x as PublishMessage;
  return !!m && typeof m === "object" && m.kind === "publish" && typeof m.id === "string" &&
    Number.isSafeInteger(m.version);
}

function delayUntil(at: number, now: number): number {
  return Math.min(MAX_QUEUE_DELAY_MS, Math.max(0, at - now));
}

/** What a new schedule needs. */
export interface ScheduleInput {
  id: string;
  userId: number;
  path: string;
  date: string;
  at: number;
}

/**
 * Creates or replaces the schedule of a post (a new version). `state: "running"` claims it at once for an
 * immediate publish (no message); otherwise a message is enqueued for `at`.
 */
export async function putSchedule(
  store: ScheduleStore,
  input: ScheduleInput,
  options: { state?: "scheduled" | "running" } = {},
): Promise<PublishSchedule> {
  const key = keys.publishSchedule(input.id);
  const attempt = async () => {
    const entry = await store.kv.get<PublishSchedule>(key);
    const now = store.now();
    const record: PublishSchedule = {
      ...input,
      version: (entry.value?.version ?? 0) + 1,
      state: options.state ?? "scheduled",
      hasLog: false,
      updatedAt: now,
    };
    const op = store.kv.atomic().check(entry).set(key, record);
    if (record.state === "scheduled") {
      const message: PublishMessage = { kind: "publish", id: input.id, version: record.version };
      op.enqueue(message, { delay: delayUntil(input.at, now) });
    }
    return (await op.commit()).ok ? record : null;
  };
  for (let i = 0; i < MAX_RETRIES; i++) {
    const record = await whenKvFree(attempt);
    if (record) return record;
  }
  throw new ConflictError("schedule_busy", `Cannot schedule "${input.path}": try again`);
}

/** Cancels a pending schedule of the user (a new version, so its message turns stale). */
export async function cancelSchedule(
  store: ScheduleStore,
  id: string,
  userId: number,
): Promise<PublishSchedule> {
  const key = keys.publishSchedule(id);
  const attempt = async () => {
    const entry = await store.kv.get<PublishSchedule>(key);
    const current = entry.value;
    if (!current || current.userId !== userId || current.state === "cancelled") {
      throw new NotFoundError("schedule_not_found");
    }
    if (current.state !== "scheduled") {
      throw new ConflictError("not_scheduled", `Cannot cancel "${current.path}": it is ${current.state}`);
    }
    const record = {
      ...current,
      version: current.version + 1,
      state: "cancelled" as const,
      updatedAt: store.now(),
    };
    return (await store.kv.atomic().check(entry).set(key, record).commit()).ok ? record : null;
  };
  for (let i = 0; i < MAX_RETRIES; i++) {
    const record = await whenKvFree(attempt);
    if (record) return record;
  }
  throw new ConflictError("schedule_busy", "Cannot cancel the schedule: try again");
}

/** A schedule by id, or null. */
export async function findSchedule(kv: Deno.Kv, id: string): Promise<PublishSchedule | null> {
  return (await kv.get<PublishSchedule>(keys.publishSchedule(id))).value;
}

/** The user's schedules (cancelled ones left out), soonest first. */
export async function listSchedules(kv: Deno.Kv, userId: number): Promise<PublishSchedule[]> {
  const out: PublishSchedule[] = [];
  for await (const e of kv.list<PublishSchedule>({ prefix: keys.publishSchedulesPrefix() })) {
    if (e.value.userId === userId && e.value.state !== "cancelled") out.push(e.value);
  }
  return out.sort((a, b) => a.at - b.at || a.path.localeCompare(b.path));
}

/** The build log of one of the user's schedules; 404 for others' and when there is none. */
export async function getBuildLog(kv: Deno.Kv, id: string, userId: number): Promise<BuildLog> {
  const entry = await kv.get<BuildLog & { userId: number }>(keys.publishLog(id));
  if (!entry.value || entry.value.userId !== userId) throw new NotFoundError("log_not_found");
  const { code, output, at } = entry.value;
  return { code, output, at };
}

/** The kept part of a build output: its tail, marked when cut. */
export function trimLog(output: string): string {
  return output.length <= MAX_LOG_CHARS ? output : `[…]\n${output.slice(-MAX_LOG_CHARS)}`;
}

/** Runs a claimed (`running`) schedule: act, then record the outcome and the build log. */
export async function executeSchedule(
  store: ScheduleStore & { act: PublishAct },
  running: PublishSchedule,
): Promise<PublishSchedule> {
  let state: ScheduleState = "published";
  let error: string | undefined;
  let outcome: PublishOutcome = {};
  try {
    outcome = await store.act(running);
    if (outcome.build && outcome.build.code !== 0) [state, error] = ["failed", "build_failed"];
  } catch (err) {
    const httpErr = toHttpError(err);
    [state, error] = ["failed", httpErr.status < 500 ? httpErr.code : "internal"];
    if (error === "internal") log.error(`publish of "${running.path}" failed`, err);
    else log.warn(`publish of "${running.path}" failed: ${error}`);
  }
  const now = store.now();
  const build = outcome.build;
  if (build) {
    const entry = { code: build.code, output: trimLog(build.output), at: now, userId: running.userId };
    await whenKvFree(() => store.kv.set(keys.publishLog(running.id), entry));
  }
  const done: PublishSchedule = {
    ...running,
    state,
    hasLog: !!build,
    updatedAt: now,
    ...(error ? { error } : {}),
    ...(build ? { buildCode: build.code } : {}),
  };
  // Only if nobody rescheduled meanwhile: a newer version stays as it is.
  const key = keys.publishSchedule(running.id);
  await whenKvFree(async () => {
    const current = await store.kv.get<PublishSchedule>(key);
    if (current.value?.version === running.version) {
      await store.kv.atomic().check(current).set(key, done).commit();
    }
  });
  return done;
}

// Claims a due schedule (`scheduled` → `running`, one atomic check-and-mark); null when stale, early or lost.
async function claim(store: ScheduleStore, message: PublishMessage): Promise<PublishSchedule | null> {
  const key = keys.publishSchedule(message.id);
  const entry = await store.kv.get<PublishSchedule>(key);
  const current = entry.value;
  if (!current || current.version !== message.version || current.state !== "scheduled") return null;
  const now = store.now();
  if (current.at - now > EARLY_TOLERANCE_MS) {
    await store.kv.atomic().check(entry).enqueue(message, { delay: delayUntil(current.at, now) }).commit();
    return null;
  }
  const running = { ...current, state: "running" as const, updatedAt: now };
  return (await store.kv.atomic().check(entry).set(key, running).commit()).ok ? running : null;
}

/**
 * Handles one queue message: ignores stale ones, re-queues early ones (long delays hop), claims the schedule with
 * an atomic check-and-mark and runs it. Returns the finished schedule, or null when this call did not run it.
 */
export async function runScheduleMessage(
  store: ScheduleStore & { act: PublishAct },
  message: PublishMessage,
): Promise<PublishSchedule | null> {
  const running = await whenKvFree(() => claim(store, message));
  return running ? await executeSchedule(store, running) : null;
}

/** Listens to the KV queue for publish messages; resolves when KV is closed. Call once per KV handle. */
export function listenPublishQueue(store: ScheduleStore & { act: PublishAct }): Promise<void> {
  return store.kv.listenQueue(async (message: unknown) => {
    if (!isPublishMessage(message)) return;
    try {
      await runScheduleMessage(store, message);
    } catch (err) {
      // A KV failure: throwing lets KV deliver the message again later.
      log.error(`publish message ${message.id} failed`, err);
      throw err;
    }
  });
}
