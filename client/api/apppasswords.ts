// This module is browser-compatible.
/** App passwords (WebDAV and scripts): `/api/apppasswords`. */
import type { AppPasswordInfo, NewAppPassword } from "../../lib/types.ts";
import { apiJson, apiSend } from "./http.ts";

/** The requester's app passwords. */
export function listAppPasswords(): Promise<AppPasswordInfo[]> {
  return apiJson<AppPasswordInfo[]>("/apppasswords");
}

/** Creates an app password; the secret in the answer is shown once. */
export function createAppPassword(name: string, currentPassword: string): Promise<NewAppPassword> {
  return apiJson<NewAppPassword>("/apppasswords", {
    method: "POST",
    json: { name, current_password: currentPassword },
  });
}

/** Revokes an app password. */
export async function deleteAppPassword(id: string): Promise<void> {
  await apiSend(`/apppasswords/${encodeURIComponent(id)}`, { method: "DELETE" });
}
