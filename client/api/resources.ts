// This module is browser-compatible.
/** Files and folders: `/api/resources` (read, create, save, delete, copy, move) and the recursive listing. */
import type { Resource } from "../../lib/types.ts";
import { encodePath, folderPath } from "../../lib/url_path.ts";
import { apiFetch, apiJson, apiSend } from "./http.ts";

/** GET a resource: a folder with its items, or a file. `checksum` asks for one hash of a file. */
export function getResource(path: string, options: { checksum?: string } = {}): Promise<Resource> {
  const query = options.checksum ? `?checksum=${encodeURIComponent(options.checksum)}` : "";
  return apiJson<Resource>(`/resources${encodePath(path)}${query}`);
}

/** The API path of a resource, as the files page preloads it. */
export function resourceApiPath(path: string): string {
  return `/resources${encodePath(path)}`;
}

/** One entry of GET /api/resources/recursive: a full vpath. */
export interface RecursiveEntry {
  path: string;
  name?: string;
  isDir: boolean;
}

/** Every entry below a folder (for the upload conflict check of dropped folders). */
export function listRecursive(dir: string): Promise<RecursiveEntry[]> {
  return apiJson<RecursiveEntry[]>(`/resources/recursive${encodePath(dir)}`);
}

/** Creates a folder (and missing parents). */
export async function createFolder(path: string): Promise<void> {
  await apiFetch(`/resources${encodePath(folderPath(path))}`, { method: "POST" });
}

/** Creates an empty file; 409 when it exists. */
export async function createFile(path: string): Promise<void> {
  await apiFetch(`/resources${encodePath(path)}?override=false`, { method: "POST", body: "" });
}

/** Saves text to an existing file (PUT /api/resources<path>). */
export async function saveText(path: string, text: string): Promise<void> {
  await apiFetch(`/resources${encodePath(path)}`, {
    method: "PUT",
    headers: { "Content-Type": "text/plain; charset=utf-8" },
    body: text,
  });
}

/**
 * The raw bytes of an editable text file (`X-Encoding: true`), so the caller can guess the encoding; null when the
 * server answers with the JSON resource instead (files it does not hand out as raw text).
 */
export async function getTextBytes(path: string): Promise<Uint8Array | null> {
  const res = await apiFetch(`/resources${encodePath(path)}`, { headers: { "X-Encoding": "true" } });
  if (res.status !== 200 || (res.headers.get("Content-Type") ?? "").includes("json")) {
    await res.body?.cancel();
    return null;
  }
  return new Uint8Array(await res.arrayBuffer());
}

/** Deletes a file or folder: into the trash, or for good with `permanent`. */
export async function deleteResource(path: string, options: { permanent?: boolean } = {}): Promise<void> {
  const query = options.permanent ? "?permanent=true" : "";
  await apiFetch(`/resources${encodePath(path)}${query}`, { method: "DELETE" });
}

/** Options of copy/move. */
export interface TransferOptions {
  /** Replace an existing destination. */
  override?: boolean;
  /** Pick a free name `name(1).ext` when the destination exists. */
  rename?: boolean;
}

async function patch(action: "copy" | "rename", from: string, to: string, options: TransferOptions) {
  // The server decodes `destination` twice, so the segment-encoded path is encoded once more.
  const query = `action=${action}&destination=${encodeURIComponent(encodePath(to))}` +
    `&override=${!!options.override}&rename=${!!options.rename}`;
  await apiSend(`/resources${encodePath(from)}?${query}`, { method: "PATCH" });
}

/** Copies `from` to the full destination path `to`. */
export function copyResource(from: string, to: string, options: TransferOptions = {}): Promise<void> {
  return patch("copy", from, to, options);
}

/** Moves or renames `from` to the full destination path `to`. */
export function moveResource(from: string, to: string, options: TransferOptions = {}): Promise<void> {
  return patch("rename", from, to, options);
}
