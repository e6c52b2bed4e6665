/**
 * Publishing of posts for a static-site generator (Hugo's layout): new posts from archetypes, and scheduled or
 * immediate publication (front matter `draft: false` + date, then the build command) through a durable KV queue.
 * Routes call the functions here with a {@link PublishRequest}; `main.ts` starts the queue listener.
 */
import { BadRequestError, NotFoundError } from "../errors.ts";
import { assertPermission } from "../fs/gate.ts";
import { normalizeSettings } from "../settings.ts";
import type { AppState } from "../state.ts";
import { users } from "../storage/mod.ts";
import type { BuildLog, PostInfo, PublishSchedule, SiteInfo } from "../types.ts";
import {
  assertFrontMatter,
  isoNow,
  parsePostDate,
  type PublishDeps,
  publishPost,
  type PublishRequest,
  resolvePost,
} from "./post.ts";
import {
  cancelSchedule,
  executeSchedule,
  findSchedule,
  getBuildLog,
  listenPublishQueue,
  listSchedules,
  type PublishAct,
  putSchedule,
  scheduleIdOf,
} from "./schedule.ts";
import { contentRootPath, isSiteEnabled, scopedVpathOf, siteOf } from "./site.ts";

export { type BuildResult, type BuildRunner, type BuildRunOptions, execBuildRunner } from "./build.ts";
export {
  createPost,
  listArchetypes,
  type NewPostInput,
  type PublishDeps,
  type PublishRequest,
} from "./post.ts";
export { validateSiteSettings } from "./site.ts";

/** Schedules reach at most this far ahead. */
export const MAX_SCHEDULE_AHEAD_MS = 10 * 366 * 24 * 3600_000;

/** The publishing request of an authenticated HTTP request. */
export function publishRequestOf(state: AppState): PublishRequest {
  return { deps: state.deps, user: state.user, settings: state.settings };
}

/** What the files page needs to offer publishing to this user. */
export function getSiteInfo(req: PublishRequest): SiteInfo {
  const site = siteOf(req.settings);
  const enabled = isSiteEnabled(site);
  return {
    enabled,
    content: enabled ? scopedVpathOf(req.user.scope, contentRootPath(site)) : null,
    build: enabled && req.deps.config.enableExec && site.build.length > 0,
  };
}

async function ownSchedule(req: PublishRequest, id: string): Promise<PublishSchedule | null> {
  const schedule = await findSchedule(req.deps.kv, id);
  return schedule && schedule.userId === req.user.id && schedule.state !== "cancelled" ? schedule : null;
}

/** The publish state of a post: its front matter format, draft flag, date and schedule. */
export async function getPostInfo(req: PublishRequest, path: string): Promise<PostInfo> {
  const { post, values } = await resolvePost(req, path);
  return {
    path: post.vpath,
    format: values?.format ?? null,
    draft: values?.draft ?? null,
    date: values?.date ?? null,
    schedule: await ownSchedule(req, await scheduleIdOf(post.real)),
  };
}

/** The post's path and the publication date. */
export interface PublishInput {
  path: string;
  /** ISO 8601 with offset; "publish now" defaults to now. */
  date?: string;
}

/** Schedules (or reschedules) the publication of a post at a future date. */
export async function schedulePost(req: PublishRequest, input: PublishInput): Promise<PublishSchedule> {
  const resolved = await resolvePost(req, input.path);
  assertFrontMatter(resolved);
  const date = input.date ?? "";
  const at = parsePostDate(date);
  const now = req.deps.now();
  if (at <= now || at - now > MAX_SCHEDULE_AHEAD_MS) {
    throw new BadRequestError(`Cannot schedule "${resolved.post.vpath}": "${date}" is not ahead`, {
      code: "bad_date",
    });
  }
  const id = await scheduleIdOf(resolved.post.real);
  return await putSchedule(req.deps, { id, userId: req.user.id, path: resolved.post.vpath, date, at });
}

/** Publishes a post now (replacing any schedule of it) and answers with the finished run. */
export async function publishNow(req: PublishRequest, input: PublishInput): Promise<PublishSchedule> {
  const resolved = await resolvePost(req, input.path);
  assertFrontMatter(resolved);
  const date = input.date || isoNow(req.deps.now());
  const at = parsePostDate(date);
  const id = await scheduleIdOf(resolved.post.real);
  const schedule = { id, userId: req.user.id, path: resolved.post.vpath, date, at };
  const running = await putSchedule(req.deps, schedule, { state: "running" });
  return await executeSchedule({ ...req.deps, act: publishActOf(req.deps) }, running);
}

/** Cancels one of the user's pending schedules. */
export async function cancelPostSchedule(req: PublishRequest, id: string): Promise<PublishSchedule> {
  assertPermission(req.user, "publish");
  return await cancelSchedule(req.deps, id, req.user.id);
}

/** The user's schedules, soonest first. */
export async function listPostSchedules(req: PublishRequest): Promise<PublishSchedule[]> {
  assertPermission(req.user, "publish");
  return await listSchedules(req.deps.kv, req.user.id);
}

/** The build log of one of the user's schedules. */
export async function getPostBuildLog(req: PublishRequest, id: string): Promise<BuildLog> {
  assertPermission(req.user, "publish");
  return await getBuildLog(req.deps.kv, id, req.user.id);
}

/** The act of a schedule: publish on behalf of its user, with their permissions and the settings of now. */
export function publishActOf(deps: PublishDeps): PublishAct {
  return async (schedule) => {
    const user = await users.findUser(deps.kv, schedule.userId);
    if (!user) throw new NotFoundError("user_missing", "The user who scheduled the post no longer exists");
    const settings = normalizeSettings(await deps.store.findSettings());
    return await publishPost({ deps, user, settings }, schedule.path, schedule.date);
  };
}

/**
 * Starts the queue listener that runs due schedules; resolves when KV is closed, rejects when this KV has no
 * queue (a failure to listen never throws synchronously). Once per KV handle.
 */
export async function startPublishing(deps: PublishDeps): Promise<void> {
  await listenPublishQueue({ kv: deps.kv, now: deps.now, act: publishActOf(deps) });
}
