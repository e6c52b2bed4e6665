import assert from "node:assert/strict";
import { fileIconOf } from "./file_icon.ts";
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

Deno.test("fileIconOf() picks the icon by type first, then by extension", () => {
  const cases: [Parameters<typeof fileIconOf>[0], unknown][] = [
    [{ isDir: true, name: "a.zip" }, Folder],
    [{ isDir: false, type: "image", name: "a.zip" }, FileImage],
    [{ isDir: false, type: "video", name: "a.mp4" }, FilePlay],
    [{ isDir: false, type: "audio", name: "a.mp3" }, FileHeadphone],
    [{ isDir: false, type: "invalid_link", name: "a" }, FileX],
    [{ isDir: false, type: "pdf", name: "a.pdf" }, FileText],
    [{ isDir: false, type: "blob", name: "a.TAR.GZ" }, FileArchive],
    [{ isDir: false, type: "text", name: "main.ts" }, FileCode],
    [{ isDir: false, type: "text", name: "notes.md" }, FileText],
    [{ isDir: false, type: "textImmutable", name: "big.log" }, FileText],
    [{ isDir: false, type: "blob", name: "a.bin" }, File],
    [{ isDir: false, type: "text" }, FileText],
    [{ isDir: false }, File],
  ];
  for (const [item, want] of cases) assert.equal(fileIconOf(item), want, JSON.stringify(item));
});
