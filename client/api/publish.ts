// This module is browser-compatible.
/** Publishing: the calls of `/api/publish` (site info, archetypes, posts, schedules, build logs). */
import type { Archetype, BuildLog, PostInfo, PublishSchedule, SiteInfo } from "../../lib/types.ts";
import { apiFetch, apiJson } from "./http.ts";

/** The site info of the current user (where the content folder is, whether publishing is available). */
export function getSiteInfo(): Promise<SiteInfo> {
  return apiJson<SiteInfo>("/publish/site");
}

/** The archetypes a new post can start from. */
export function listArchetypes(): Promise<Archetype[]> {
  return apiJson("/publish/archetypes");
}

/** Creates a post from an archetype; answers its vpath. */
export function createPost(
  input: { archetype: string; title: string; section: string; date: string },
): Promise<{ path: string }> {
  return apiJson("/publish/posts", { method: "POST", json: input });
}

/** The publish state of a post. */
export function getPostInfo(path: string): Promise<PostInfo> {
  return apiJson(`/publish/post?path=${encodeURIComponent(path)}`);
}

/** The user's schedules. */
export function listSchedules(): Promise<PublishSchedule[]> {
  return apiJson("/publish/schedules");
}

/** Schedules (or reschedules) a post. */
export function schedulePublish(path: string, date: string): Promise<PublishSchedule> {
  return apiJson("/publish/schedules", { method: "POST", json: { path, date } });
}

/** Publishes a post now; answers the finished run (state `published` or `failed`). */
export function publishNow(path: string, date: string): Promise<PublishSchedule> {
  return apiJson("/publish/now", { method: "POST", json: { path, date } });
}

/** Cancels a pending schedule. */
export async function cancelSchedule(id: string): Promise<void> {
  await apiFetch(`/publish/schedules/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/** The build log of a schedule. */
export function getBuildLog(id: string): Promise<BuildLog> {
  return apiJson(`/publish/schedules/${encodeURIComponent(id)}/log`);
}
