// This module is browser-compatible.
/** Share links of the signed-in user: `/api/share<path>` and `/api/shares` (list, create, delete). */
import type { Share } from "../../lib/types.ts";
import { encodePath } from "../../lib/url_path.ts";
import { apiFetch, apiJson } from "./http.ts";

/** The links of one path (own links; admins see every owner's). */
export function listSharesOf(path: string): Promise<Share[]> {
  return apiJson<Share[]>(`/share${encodePath(path)}`);
}

/** Every link the user may manage (all users' for admins). */
export function listAllShares(): Promise<Share[]> {
  return apiJson<Share[]>("/shares");
}

/**
 * Creates a link from the body the share dialog built; the duration also travels in the query, as filebrowser's
 * clients send it.
 */
export function postShare(path: string, body: Record<string, unknown>): Promise<Share> {
  const query = body.expires ? `?expires=${body.expires}&unit=${body.unit}` : "";
  return apiJson<Share>(`/share${encodePath(path)}${query}`, { method: "POST", body: JSON.stringify(body) });
}

/** Deletes a link. */
export async function deleteShare(hash: string): Promise<void> {
  await apiFetch(`/share/${encodeURIComponent(hash)}`, { method: "DELETE" });
}
