// This module is browser-compatible.
/** Disk usage: `/api/usage` (the sidebar's bar). */
import type { Usage } from "../../lib/types.ts";
import { encodePath, folderPath } from "../../lib/url_path.ts";
import { apiJson } from "./http.ts";

/** Disk usage of the filesystem holding a folder. */
export function getUsage(path: string): Promise<Usage> {
  return apiJson<Usage>(`/usage${encodePath(folderPath(path))}`);
}
