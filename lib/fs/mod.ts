/**
 * The file layer: the path gate and every file operation behind the Files API (docs/api.md). Everything on
 * disk goes through `resolveScoped()`; the operations accept only the `ScopedPath` it returns.
 */
export {
  assertPermission,
  type Confinement,
  type GateContext,
  gateContextOf,
  isVisible,
  type Need,
  resolveScoped,
  scopedChild,
  scopeDirOf,
  type ScopedPath,
} from "./gate.ts";
export {
  type CleanVpath,
  cleanVpath,
  commonDir,
  extensionOf,
  joinVpath,
  vpathBase,
  vpathDir,
} from "./path.ts";
export { hasHiddenSegment, isAllowedByRules, matchesRule } from "./rules.ts";
export { type FsRequest, fsRequestOf, previewServiceFor } from "./request.ts";
export { describe, getResource, getResourceJson, type GetResourceOptions } from "./resources.ts";
export { ListingCache, type ListingCacheOptions, type ListingCacheStats } from "./listing_cache.ts";
export { listRecursive, type RecursiveEntry } from "./recursive.ts";
export { createDirectory, saveResource, uploadResource, type WriteResult } from "./write.ts";
export { DIR_MODE, FILE_MODE, uploadEtag, writeFileAtomic } from "./atomic.ts";
export { deleteResource } from "./remove.ts";
export { decodeDestination, numberedName, type PatchOptions, patchResource } from "./transfer.ts";
export { copyEntry } from "./copy.ts";
export { moveEntry } from "./move.ts";
export { contentDisposition, type DownloadRequest, type FileDownload, planDownload } from "./download.ts";
export { openRaw, type RawRequest } from "./raw.ts";
export { parseFilesParam, planArchive } from "./archive_source.ts";
export { openPreview, openSubtitle } from "./preview.ts";
export { getUsage } from "./usage.ts";
export { mimeByExtension } from "./mime.ts";
export { detectType, formatModified, goFileMode } from "./file_info.ts";
export { isCaseInsensitive } from "./case_probe.ts";
