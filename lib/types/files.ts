// This module is browser-compatible.
/** Wire shapes of files and what is done with them: resources, shares, search, usage, trash, extraction (docs/api.md). */
import type { Sorting } from "./users.ts";

/** A share link on the wire (docs/api.md#shares). */
export interface Share {
  hash: string;
  path: string;
  userID: number;
  expire: number;
  hasPassword: boolean;
  /** Unix seconds the link was made (our extension; absent on older or imported links). */
  created?: number;
  /** "drop": an upload-only link to a folder (our extension; absent on ordinary links). */
  kind?: "drop";
  /** Drop links: largest accepted file in bytes (0: no limit). */
  maxFileSize?: number;
  /** Drop links: how many files may be uploaded (0: no limit). */
  maxFiles?: number;
  /** Drop links: uploads started so far. */
  uploads?: number;
  /** Added client-side for admins. */
  username?: string;
}

/** Resource type values (docs/api.md#resources). */
export type ResourceType =
  | ""
  | "image"
  | "video"
  | "audio"
  | "pdf"
  | "text"
  | "textImmutable"
  | "blob"
  | "invalid_link";

/** A file or folder (docs/api.md#resources). */
export interface Resource {
  items?: Resource[];
  numDirs?: number;
  numFiles?: number;
  sorting?: Sorting;
  path: string;
  name: string;
  size: number;
  extension: string;
  modified: string;
  mode: number;
  isDir: boolean;
  isSymlink: boolean;
  type: ResourceType;
  subtitles?: string[];
  content?: string;
  checksums?: Record<string, string>;
  token?: string;
  resolution?: { width: number; height: number };
}

/** One search hit (NDJSON line of /api/search). */
export interface SearchHit {
  dir: boolean;
  path: string;
}

/** The last line of a search that could not read some folders below, their path being too long. */
export interface SearchTruncation {
  truncated: "path_too_long";
  /** How many folders were not searched (what is below them neither). */
  folders: number;
}

/** Disk usage (docs/api.md#disk-usage). */
export interface Usage {
  total: number;
  used: number;
}

/** One deleted item in the user's trash (GET /api/trash). */
export interface TrashItem {
  id: string;
  /** Where it was, in the user's scope. */
  path: string;
  name: string;
  isDir: boolean;
  /** Bytes of the item (all files of a folder). */
  size: number;
  /** ISO time of the deletion. */
  deletedAt: string;
  /** ISO time after which the purge removes it for good. */
  expiresAt: string;
}

/** Why an archive entry was not extracted (one NDJSON `skip` line of POST /api/extract). */
export type ExtractSkipReason =
  | "exists"
  | "is_folder"
  | "not_folder"
  | "symlink"
  | "hardlink"
  | "special"
  | "bad_name"
  | "denied"
  | "hidden";

/** One NDJSON line of POST /api/extract (docs/api.md#extract). */
export type ExtractEvent =
  | { type: "start"; entries: number; bytes: number }
  | { type: "progress"; entries: number; bytes: number; name: string }
  | { type: "skip"; name: string; reason: ExtractSkipReason }
  | { type: "done"; files: number; folders: number; skipped: number; bytes: number }
  | { type: "error"; status: number; message: string };

/** What a folder holds, counted with rules and hiding applied (GET /api/foldersize). */
export interface FolderSize {
  bytes: number;
  files: number;
  folders: number;
  /**
   * Folders below that were not walked because their path is too long to address (over 4,095 bytes):
   * what they hold is not counted. Absent when there is none.
   */
  pathTooLong?: number;
}

/** One NDJSON line of GET /api/foldersize (docs/api.md#folder-sizes). */
export type FolderSizeEvent =
  | ({ type: "progress" } & FolderSize)
  | ({ type: "done"; cached: boolean } & FolderSize);
