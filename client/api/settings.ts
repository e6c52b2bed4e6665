// This module is browser-compatible.
/** The global settings: `/api/settings` (admins). */
import type { Settings } from "../../lib/types.ts";
import { apiFetch, apiJson } from "./http.ts";

/** Reads the global settings (admin). */
export function getSettings(): Promise<Settings> {
  return apiJson<Settings>("/settings");
}

/** Saves the whole settings object (admin). */
export async function putSettings(settings: Settings): Promise<void> {
  await apiFetch("/settings", { method: "PUT", json: settings });
}
