// This module is browser-compatible.
/** Accounts: `/api/users` (list, read, create, save, delete, password) and the session user after a change. */
import type { User } from "../../lib/types.ts";
import { renewToken } from "../session.ts";
import { user as sessionUser } from "../state.ts";
import { apiFetch, apiJson, apiSend } from "./http.ts";

/** All users, by id (admin). */
export function listUsers(): Promise<User[]> {
  return apiJson<User[]>("/users");
}

/** One user (self or admin). */
export function getUser(id: number): Promise<User> {
  return apiJson<User>(`/users/${id}`);
}

/** Options of the calls that change accounts. */
export interface ReauthOptions {
  /** The requester's own password (json auth re-authenticates these calls; other methods ignore it). */
  currentPassword?: string;
}

/** Creates a user (admin); returns the new id read from the Location header. */
export async function createUser(data: User, options: ReauthOptions = {}): Promise<number> {
  const res = await apiSend("/users", {
    method: "POST",
    json: {
      what: "user",
      which: [],
      current_password: options.currentPassword ?? "",
      data: { ...data, id: 0 },
    },
  });
  const id = Number(res.headers.get("Location")?.split("/").pop());
  return Number.isInteger(id) ? id : 0;
}

/** Replaces a whole user record (admin, `which: ["all"]`); a blank password keeps the stored one. */
export async function saveUser(data: User, options: ReauthOptions = {}): Promise<void> {
  await apiFetch(`/users/${data.id}`, {
    method: "PUT",
    json: { what: "user", which: ["all"], current_password: options.currentPassword ?? "", data },
  });
  if (sessionUser.value?.id === data.id) await refreshSessionUser();
}

/** Saves some fields of a user (`which` names them), e.g. `["viewMode"]`. */
export async function updateUser(id: number, which: string[], data: Partial<User>): Promise<void> {
  await apiFetch(`/users/${id}`, { method: "PUT", json: { what: "user", which, data: { id, ...data } } });
}

/** Deletes a user (admin, or oneself). */
export async function deleteUser(id: number, options: ReauthOptions = {}): Promise<void> {
  await apiSend(`/users/${id}`, {
    method: "DELETE",
    json: { current_password: options.currentPassword ?? "" },
  });
}

/** Changes one's own password (Settings › Profile). */
export async function changePassword(
  id: number,
  password: string,
  options: ReauthOptions = {},
): Promise<void> {
  await apiSend(`/users/${id}`, {
    method: "PUT",
    json: {
      what: "user",
      which: ["password"],
      current_password: options.currentPassword ?? "",
      data: { id, password },
    },
  });
}

/** After the session user's record changed: a fresh token (new claims) and the stored record as session user. */
export async function refreshSessionUser(): Promise<void> {
  const current = sessionUser.value;
  if (!current) return;
  await renewToken();
  sessionUser.value = await getUser(current.id);
}
