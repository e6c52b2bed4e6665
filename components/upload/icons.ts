// This module is browser-compatible.
/**
 * The upload icons that components/icons.ts does not carry, each from its own lucide module (the package entry
 * would load every icon at server start).
 */
import Ban from "lucide/dist/esm/icons/ban.mjs";
import ChevronDown from "lucide/dist/esm/icons/chevron-down.mjs";
import ChevronUp from "lucide/dist/esm/icons/chevron-up.mjs";
import FileUp from "lucide/dist/esm/icons/file-up.mjs";
import FolderUp from "lucide/dist/esm/icons/folder-up.mjs";
import Upload from "lucide/dist/esm/icons/upload.mjs";

export { Ban, ChevronDown, ChevronUp, FileUp, FolderUp, Upload };
