// This module is browser-compatible.
/**
 * App passwords (WebDAV and scripts): the requester's at `/api/apppasswords`, another user's (admins, the user
 * editor) at `/api/users/<id>/apppasswords`.
 */
import type { AppPasswordInfo, NewAppPassword } from "../../lib/types.ts";
import { apiJson, apiSend } from "./http.ts";

/** Which user's app passwords: the requester's (no id), or, for an admin, the user with this id. */
export interface AppPasswordsOf {
  userId?: number;
}

function base(of: AppPasswordsOf): string {
  return of.userId === undefined ? "/apppasswords" : `/users/${of.userId}/apppasswords`;
}

/** The app passwords of the requester (or, for an admin, of `of.userId`). */
export function listAppPasswords(of: AppPasswordsOf = {}): Promise<AppPasswordInfo[]> {
  return apiJson<AppPasswordInfo[]>(base(of));
}

/** Creates an app password; the secret in the answer is shown once. */
export function createAppPassword(name: string, currentPassword: string): Promise<NewAppPassword> {
  return apiJson<NewAppPassword>("/apppasswords", {
    method: "POST",
    json: { name, current_password: currentPassword },
  });
}

/** Revokes an app password (the sessions it opened end with it). */
export async function deleteAppPassword(id: string, of: AppPasswordsOf = {}): Promise<void> {
  await apiSend(`${base(of)}/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/** Revokes every app password of the requester (or of `of.userId`); returns how many. */
export async function deleteAllAppPasswords(of: AppPasswordsOf = {}): Promise<number> {
  return (await apiJson<{ revoked: number }>(base(of), { method: "DELETE" })).revoked;
}
