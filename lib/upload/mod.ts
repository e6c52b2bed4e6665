/**
 * Resumable uploads (tus 1.0 as filebrowser speaks it, docs/api.md#uploads-tus), addressed by target vpath,
 * one module per operation: create (POST), append (PATCH), status (HEAD), terminate (DELETE) and sweep (the
 * timer that removes abandoned uploads), all over one lock (lock.ts). State lives in KV (store.ts), bytes in
 * a staging file outside the files root (staging.ts); the finished file is placed atomically (placement.ts).
 * Every call goes through the path gate. Routes call these functions and only turn results into headers.
 */
export { createUpload, type CreateUploadOptions } from "./create.ts";
export { type AppendChunkOptions, appendUploadChunk } from "./append.ts";
export { getUploadStatus } from "./status.ts";
export { terminateUpload } from "./terminate.ts";
export { type CleanupResult, cleanupUploads } from "./sweep.ts";
export {
  assertChunkContentType,
  parseUploadLength,
  parseUploadOffset,
  TUS_CONTENT_TYPE,
  tusLocation,
} from "./protocol.ts";
export { releaseParkedLeases } from "./lock.ts";
export type { UploadContext, UploadDeps, UploadStatus } from "./target.ts";
