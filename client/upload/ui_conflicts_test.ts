import assert from "node:assert/strict";
import { findConflicts, withoutConflicts } from "./ui_conflicts.ts";
import type { ConflictReaders, ExistingEntry } from "./ui_conflicts.ts";
import type { UploadSource } from "./sources.ts";

const file = { size: 1, type: "text/plain" };

function src(path: string, isDir = false): UploadSource {
  return isDir ? { path, isDir } : { path, isDir, file };
}

/** Readers over a fixed tree of vpaths (folders end with "/"), counting the recursive reads. */
function readers(tree: string[]) {
  const calls: string[] = [];
  const entries: ExistingEntry[] = tree.map((p) => ({ path: p.replace(/\/$/, ""), isDir: p.endsWith("/") }));
  const r: ConflictReaders = {
    list: (dir) =>
      Promise.resolve(
        entries.filter((e) => e.path.startsWith(dir) && !e.path.slice(dir.length).includes("/"))
          .map((e) => ({ ...e, name: e.path.slice(dir.length) })),
      ),
    listRecursive: (dir) => {
      calls.push(dir);
      return Promise.resolve(entries.filter((e) => e.path.startsWith(dir)));
    },
  };
  return { r, calls };
}

Deno.test("findConflicts() reports top-level files whose name is taken, without recursive reads", async () => {
  const { r, calls } = readers(["/dest/a.txt", "/dest/docs/", "/other.txt"]);
  const found = await findConflicts([src("a.txt"), src("b.txt"), src("docs"), src("other.txt")], "/dest", r);
  assert.deepEqual([...found].sort(), ["a.txt", "docs"]);
  assert.deepEqual(calls, []);
});

Deno.test("findConflicts() merges a picked folder into an existing one and reports only files that exist", async () => {
  const { r, calls } = readers([
    "/dest/photos/",
    "/dest/photos/a.jpg",
    "/dest/photos/2024/",
    "/dest/photos/2024/b.jpg",
    "/dest/photos/clash/",
  ]);
  const sources = [
    src("photos", true),
    src("photos/a.jpg"),
    src("photos/new.jpg"),
    src("photos/2024", true),
    src("photos/2024/b.jpg"),
    src("photos/2024/c.jpg"),
    src("photos/clash"),
    src("fresh/x.txt"),
  ];
  const found = await findConflicts(sources, "/dest/", r);
  assert.deepEqual([...found].sort(), ["photos/2024/b.jpg", "photos/a.jpg", "photos/clash"]);
  assert.deepEqual(calls, ["/dest/photos/"], "one recursive read, only for the folder that exists");
  assert.deepEqual(
    withoutConflicts(sources, found).map((s) => s.path),
    ["photos", "photos/new.jpg", "photos/2024", "photos/2024/c.jpg", "fresh/x.txt"],
  );
});

Deno.test("findConflicts() reports a whole picked folder whose name is taken by a file", async () => {
  const { r } = readers(["/notes"]);
  const found = await findConflicts([src("notes/a.txt"), src("notes/b/c.txt"), src("d.txt")], "/", r);
  assert.deepEqual([...found].sort(), ["notes/a.txt", "notes/b/c.txt"]);
});
