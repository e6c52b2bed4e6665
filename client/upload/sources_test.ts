import assert from "node:assert/strict";
import { conflictingNames, planUploads, sourcesFromEntries, sourcesFromFiles } from "./sources.ts";
import type { EntryLike } from "./sources.ts";

const f = (name: string, size = 1) => ({ name, size, type: "" });

Deno.test("planUploads() creates every folder first, parents before children, then the files", () => {
  const jobs = planUploads(
    [
      { path: "photos/2024/a.jpg", isDir: false, file: f("a.jpg") },
      { path: "photos/empty", isDir: true },
      { path: "notes.txt", isDir: false, file: f("notes.txt") },
    ],
    "/docs/",
    { overwrite: true },
  );
  assert.deepEqual(jobs.map((j) => [j.kind, j.path]), [
    ["dir", "/docs/photos/"],
    ["dir", "/docs/photos/2024/"],
    ["dir", "/docs/photos/empty/"],
    ["file", "/docs/photos/2024/a.jpg"],
    ["file", "/docs/notes.txt"],
  ]);
  assert.ok(jobs.every((j) => j.kind === "dir" || j.overwrite));
});

Deno.test("planUploads() skips names the user chose not to replace and strips ../ segments", () => {
  const jobs = planUploads(
    [
      { path: "keep.txt", isDir: false, file: f("keep.txt") },
      { path: "../../evil.txt", isDir: false, file: f("evil.txt") },
      { path: "photos/a.jpg", isDir: false, file: f("a.jpg") },
    ],
    "/",
    { overwrite: false, skip: ["photos"] },
  );
  assert.deepEqual(jobs.map((j) => j.path), ["/keep.txt", "/evil.txt"]);
});

Deno.test("conflictingNames() compares top-level names with the destination listing", () => {
  const sources = sourcesFromFiles([
    { ...f("a.jpg"), webkitRelativePath: "photos/a.jpg" },
    { ...f("b.jpg"), webkitRelativePath: "photos/b.jpg" },
    { ...f("c.txt"), webkitRelativePath: "" },
  ]);
  assert.deepEqual(sources.map((s) => s.path), ["photos/a.jpg", "photos/b.jpg", "c.txt"]);
  assert.deepEqual(conflictingNames(sources, ["photos", "other"]), ["photos"]);
  assert.deepEqual(conflictingNames(sources, []), []);
});

function fileEntry(name: string): EntryLike {
  return { isFile: true, isDirectory: false, name, file: (ok) => ok(f(name)) };
}

function dirEntry(name: string, children: EntryLike[]): EntryLike {
  return {
    isFile: false,
    isDirectory: true,
    name,
    createReader() {
      // Hand out the children in batches of 2, then an empty batch, like browsers do (in batches of 100).
      const rest = [...children];
      return { readEntries: (ok) => ok(rest.splice(0, 2)) };
    },
  };
}

Deno.test("sourcesFromEntries() walks dropped folders in batches and keeps empty folders", async () => {
  const sources = await sourcesFromEntries([
    dirEntry("album", [fileEntry("1.jpg"), fileEntry("2.jpg"), fileEntry("3.jpg"), dirEntry("empty", [])]),
    fileEntry("top.txt"),
  ]);
  assert.deepEqual(sources.map((s) => [s.path, s.isDir]), [
    ["album", true],
    ["album/1.jpg", false],
    ["album/2.jpg", false],
    ["album/3.jpg", false],
    ["album/empty", true],
    ["top.txt", false],
  ]);
});
