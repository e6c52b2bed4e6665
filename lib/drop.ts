/**
 * Upload-only share links ("file drops", docs/api.md#file-drop-links): visitors upload into the shared folder
 * through tus without seeing its contents. The link is a share record with extra keys (`kind: "drop"`,
 * `maxFileSize`, `maxFiles`, `uploads`), so other filebrowser clients still read it as a share. Uploads run as
 * the link's owner, re-rooted at the shared folder, through the path gate; they never replace a file. A
 * visitor's upload is addressed by a random id, not by its name: the name the server picked stays unknown to the
 * visitor (it would tell which names exist), and other visitors cannot reach the upload.
 */
import { BadRequestError, ForbiddenError, NotFoundError, PayloadTooLargeError } from "./errors.ts";
import { assertPermission, resolveScoped } from "./fs/gate.ts";
import { newNameProblem } from "./names.ts";
import { candidateName, CANDIDATES, randomUrlSafe } from "./drop_names.ts";
import { type OpenedShare, openShare, type PublicCredentials, splitSharePath } from "./shares.ts";
import { keys } from "./storage/keys.ts";
import type { StoredShare } from "./storage/mod.ts";
import type { Settings, StoredUser } from "./types.ts";
import type { AppDeps } from "./state.ts";
import {
  type AppendChunkOptions,
  appendUploadChunk,
  createUpload,
  getUploadStatus,
  parseUploadLength,
  type UploadContext,
  type UploadStatus,
} from "./upload/mod.ts";
import type { DropMarker } from "./upload/drop_guard.ts";
import { findUpload, targetKeyOf } from "./upload/store.ts";

/** The drop fields of a share record. */
export interface DropFields {
  kind: "drop";
  maxFileSize: number;
  maxFiles: number;
  uploads: number;
}

/**
 * How long the marker tying an upload to its drop link, and its id, live. They outlive the upload so that a
 * finished file's name is not handed out again while a client may still ask for its offset. A marker holds the
 * name against the owner only while the upload's lease lives (lib/upload/drop_guard.ts).
 */
const MARKER_TTL_MS = 7 * 24 * 3600 * 1000;

/** What a visitor's upload id leads to. */
interface DropTicket {
  name: string;
  targetKey: string;
}

/** Upload ids: 24 random bytes as 32 URL-safe base64 characters. */
const UPLOAD_ID = /^[A-Za-z0-9_-]{32}$/;

function limitOf(body: Record<string, unknown>, key: string): number {
  const v = body[key];
  if (v === undefined || v === null || v === "") return 0;
  const n = typeof v === "string" && /^\d{1,16}$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
    throw new BadRequestError(`"${key}" must be a non-negative integer`, { code: "bad_type" });
  }
  return n;
}

/**
 * The drop fields asked for in a POST /api/share body (`kind: "drop"`), or null for an ordinary link. A drop
 * link needs `create` and a folder.
 */
export function dropFieldsOf(
  user: StoredUser,
  body: Record<string, unknown>,
  target: { isDirectory: boolean },
): DropFields | null {
  if (body.kind === undefined || body.kind === null || body.kind === "") return null;
  if (body.kind !== "drop") throw new BadRequestError(`unknown share kind`, { code: "bad_share_kind" });
  assertPermission(user, "create");
  if (!target.isDirectory) {
    throw new BadRequestError("a drop link must point at a folder", { code: "drop_needs_folder" });
  }
  return {
    kind: "drop",
    maxFileSize: limitOf(body, "maxFileSize"),
    maxFiles: limitOf(body, "maxFiles"),
    uploads: 0,
  };
}

/** Throws for a drop link on the public listing (404) and download (403) endpoints: its contents stay hidden. */
export function refuseDrop(opened: OpenedShare, use: "list" | "download"): void {
  if (opened.link.kind !== "drop") return;
  if (use === "list") throw new NotFoundError();
  throw new ForbiddenError("drop_link");
}

/** A public drop request: `<hash>[/<name>]` and the visitor's credentials. */
export interface DropRequest {
  rest: string;
  credentials: PublicCredentials;
}

/** What the drop page learns about a link (after its password). */
export interface DropInfo {
  name: string;
  maxFileSize: number;
  maxFiles: number;
  /** Files that may still be uploaded (null: no limit). */
  remaining: number | null;
}

interface OpenedDrop {
  opened: OpenedShare;
  upload: UploadContext;
  name: string;
}

async function openDrop(
  deps: AppDeps,
  settings: Settings,
  req: DropRequest,
): Promise<OpenedDrop> {
  const { hash, sub } = splitSharePath(req.rest);
  const opened = await openShare(deps, settings, { hash, sub: "/", credentials: req.credentials });
  if (opened.link.kind !== "drop" || opened.isFile) throw new NotFoundError();
  const name = sub.replace(/^\//, "");
  return { opened, upload: { deps, user: opened.owner, gate: opened.ctx }, name };
}

function checkedName(name: string): string {
  if (newNameProblem(name) !== null || name.includes("/")) {
    throw new BadRequestError("invalid file name", { code: "invalid_name" });
  }
  return name;
}

/** GET /api/public/tus/<hash>: the drop link's limits. */
export async function dropInfo(
  deps: AppDeps,
  settings: Settings,
  req: DropRequest,
): Promise<DropInfo> {
  const { opened } = await openDrop(deps, settings, req);
  const { link } = opened;
  const maxFiles = link.maxFiles ?? 0;
  return {
    name: link.path.replace(/\/+$/, "").split("/").pop() || "/",
    maxFileSize: link.maxFileSize ?? 0,
    maxFiles,
    remaining: maxFiles ? Math.max(0, maxFiles - (link.uploads ?? 0)) : null,
  };
}

/** A reserved name: its marker and the visitor's upload id that leads to it. */
interface Reserved {
  name: string;
  id: string;
  marker: Deno.KvKey;
  ticket: Deno.KvKey;
}

/**
 * Reserves the first of `name`, `name (1)`, ... that is neither a file, nor an unfinished upload, nor
 * reserved by another drop upload: the marker (which ties the name to the link and the upload's id) is written
 * only if the name has none, so two visitors sending the same name at once get different names. The visitor
 * learns only the id, so nothing about the answer depends on what the folder holds.
 */
async function reserveName(drop: OpenedDrop): Promise<Reserved> {
  const { kv } = drop.upload.deps;
  const hash = drop.opened.link.hash;
  for (let n = 0; n < CANDIDATES; n++) {
    const candidate = candidateName(drop.name, n);
    if (newNameProblem(candidate) !== null) continue;
    let real: string;
    try {
      const p = await resolveScoped(drop.upload.gate, "/" + candidate, "create");
      if (p.lstat !== null) continue;
      real = p.real;
    } catch (err) {
      // The name asked for answers as any path would; a rule on a suffixed name only skips that name.
      if (n === 0 || !(err instanceof ForbiddenError)) throw err;
      continue;
    }
    const targetKey = await targetKeyOf(real);
    if (await findUpload(kv, targetKey)) continue;
    const id = randomUrlSafe(24);
    const marker = keys.dropUpload(targetKey);
    const ticket = keys.dropUploadId(hash, id);
    const res = await kv.atomic().check({ key: marker, versionstamp: null })
      .set(marker, { hash, id } satisfies DropMarker, { expireIn: MARKER_TTL_MS })
      .set(ticket, { name: candidate, targetKey } satisfies DropTicket, { expireIn: MARKER_TTL_MS })
      .commit();
    if (res.ok) return { name: candidate, id, marker, ticket };
  }
  throw new ForbiddenError("drop_name_taken");
}

/**
 * Counts one upload on the link (`by` 1), or gives one back (`by` -1) when its creation failed; counting up
 * throws 403 once `maxFiles` are reached. Safe against parallel creations.
 */
async function countUpload(kv: Deno.Kv, hash: string, by: 1 | -1): Promise<void> {
  for (;;) {
    const entry = await kv.get<StoredShare>(keys.share(hash));
    // The link was removed meanwhile: nothing to count.
    if (!entry.value) return;
    const link = entry.value;
    const uploads = Math.max(0, (link.uploads ?? 0) + by);
    if (by > 0 && link.maxFiles && uploads > link.maxFiles) throw new ForbiddenError("drop_limit_reached");
    const res = await kv.atomic().check(entry).set(keys.share(hash), { ...link, uploads }).commit();
    if (res.ok) return;
  }
}

/**
 * tus POST on a drop link: checks the name (400), the size limit (413) and the file limit (403), picks a free
 * name (" (1)" suffixes) and creates the upload as the owner. Returns the status with the upload's id (the
 * Location names it) and the name picked (for the audit log only: the visitor is never told), and for a password
 * link its bypass token (the visitor just proved the password), so that the chunks that follow need no password
 * check each.
 */
export async function createDropUpload(
  deps: AppDeps,
  settings: Settings,
  req: DropRequest & { length: string | null | undefined },
): Promise<UploadStatus & { id: string; name: string; token: string }> {
  const drop = await openDrop(deps, settings, req);
  checkedName(drop.name);
  const length = parseUploadLength(req.length);
  const { link } = drop.opened;
  if (link.maxFileSize && length > link.maxFileSize) throw new PayloadTooLargeError("drop_file_too_large");
  await countUpload(deps.kv, link.hash, 1);
  let reserved: Reserved | null = null;
  try {
    reserved = await reserveName(drop);
    const { name, id } = reserved;
    const status = await createUpload(drop.upload, "/" + name, { length: String(length), override: false });
    // Audit log call site: a visitor started a drop upload (link.hash, owner link.userID, name, length).
    return { ...status, id, name, token: link.passwordHash ? link.token : "" };
  } catch (err) {
    if (reserved) await deps.kv.atomic().delete(reserved.marker).delete(reserved.ticket).commit();
    await countUpload(deps.kv, link.hash, -1);
    throw err;
  }
}

/**
 * The drop upload a visitor addresses by its id: only one created through this link whose name still holds
 * that id (404 otherwise: an unknown id, another link's, or a name the owner took over since).
 */
async function ownDrop(
  deps: AppDeps,
  settings: Settings,
  req: DropRequest,
): Promise<OpenedDrop> {
  const drop = await openDrop(deps, settings, req);
  const id = drop.name;
  const hash = drop.opened.link.hash;
  if (!UPLOAD_ID.test(id)) throw new NotFoundError("upload_not_found");
  const ticket = (await deps.kv.get<DropTicket>(keys.dropUploadId(hash, id))).value;
  if (!ticket) throw new NotFoundError("upload_not_found");
  const p = await resolveScoped(drop.upload.gate, "/" + ticket.name, "create");
  const targetKey = await targetKeyOf(p.real);
  const marker = (await deps.kv.get<DropMarker>(keys.dropUpload(targetKey))).value;
  const holds = targetKey === ticket.targetKey && typeof marker === "object" && marker !== null &&
    marker.hash === hash && marker.id === id;
  if (!holds) throw new NotFoundError("upload_not_found");
  return { ...drop, name: ticket.name };
}

/** tus HEAD on a drop upload. */
export async function dropUploadStatus(
  deps: AppDeps,
  settings: Settings,
  req: DropRequest,
): Promise<UploadStatus> {
  const drop = await ownDrop(deps, settings, req);
  return getUploadStatus(drop.upload, "/" + drop.name);
}

/** tus PATCH on a drop upload. */
export async function appendDropChunk(
  deps: AppDeps,
  settings: Settings,
  req: DropRequest & { chunk: AppendChunkOptions },
): Promise<UploadStatus> {
  const drop = await ownDrop(deps, settings, req);
  return appendUploadChunk(drop.upload, "/" + drop.name, req.chunk);
}

/** The Location of a drop upload: `<base>/api/public/tus/<hash>/<upload id>[?token=<token>]`. */
export function dropLocation(baseUrl: string, hash: string, id: string, token = ""): string {
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  return `${baseUrl}/api/public/tus/${encodeURIComponent(hash)}/${encodeURIComponent(id)}${query}`;
}
