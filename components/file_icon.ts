// This module is browser-compatible.
/**
 * The icon of a file or folder, one rule for every place that draws one (listing rows and cards, the upload panel):
 * by the item's type, then by its extension for archives and source code.
 */
import type { IconNode } from "lucide";
import {
  File,
  FileArchive,
  FileCode,
  FileHeadphone,
  FileImage,
  FilePlay,
  FileText,
  FileX,
  Folder,
} from "./icons.ts";

const ARCHIVES = /\.(zip|tar|gz|tgz|bz2|xz|7z|rar|zst|lz4|br)$/i;
const CODE = /\.(js|ts|tsx|jsx|go|rs|py|rb|java|c|cc|cpp|h|sh|json|ya?ml|toml|html|css|xml)$/i;

/** What the icon depends on: a Resource, an upload row or a search hit fit. */
export interface IconSubject {
  isDir: boolean;
  /** The type the server detected (`image`, `text`, …); unset when unknown. */
  type?: string;
  name?: string;
}

/** The icon of an item by its type and extension. */
export function fileIconOf(item: IconSubject): IconNode {
  if (item.isDir) return Folder;
  switch (item.type) {
    case "image":
      return FileImage;
    case "video":
      return FilePlay;
    case "audio":
      return FileHeadphone;
    case "invalid_link":
      return FileX;
    case "pdf":
      return FileText;
  }
  const name = item.name ?? "";
  if (ARCHIVES.test(name)) return FileArchive;
  if (CODE.test(name)) return FileCode;
  return item.type === "text" || item.type === "textImmutable" ? FileText : File;
}
