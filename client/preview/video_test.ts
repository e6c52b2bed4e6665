import { strictEqual } from "node:assert/strict";
import { loadPosition, prunePositions, savePosition } from "./video.ts";
import type { KeyValueStorage } from "./video.ts";

function memoryStorage(): KeyValueStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, String(v)),
    removeItem: (k) => void map.delete(k),
    key: (i) => [...map.keys()][i] ?? null,
    get length() {
      return map.size;
    },
  };
}

Deno.test("savePosition() and loadPosition() remember a position per source", () => {
  const storage = memoryStorage();
  savePosition("/a.webm", 12.34, { duration: 60, storage });
  strictEqual(loadPosition("/a.webm", storage), 12.3);
  strictEqual(loadPosition("/b.webm", storage), 0);
});

Deno.test("savePosition() forgets positions near the start or the end", () => {
  const storage = memoryStorage();
  savePosition("/a.webm", 30, { duration: 60, storage });
  savePosition("/a.webm", 59.5, { duration: 60, storage });
  strictEqual(loadPosition("/a.webm", storage), 0);
  savePosition("/a.webm", 30, { duration: 60, storage });
  savePosition("/a.webm", 1, { duration: 60, storage });
  strictEqual(loadPosition("/a.webm", storage), 0);
});

Deno.test("prunePositions() keeps only the newest entries", () => {
  const storage = memoryStorage();
  storage.setItem("fb:video-time:/old", JSON.stringify({ t: 5, at: 1 }));
  storage.setItem("fb:video-time:/new", JSON.stringify({ t: 5, at: 2 }));
  storage.setItem("unrelated", "x");
  prunePositions(storage, 1);
  strictEqual(storage.getItem("fb:video-time:/old"), null);
  strictEqual(loadPosition("/new", storage), 5);
  strictEqual(storage.getItem("unrelated"), "x");
});
