import { strictEqual } from "node:assert/strict";
import { loadPosition, loadRate, prunePositions, savePosition, saveRate } from "./video.ts";
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

Deno.test("saveRate() and loadRate() remember a playback rate per source; 1 and unknown rates are not kept", () => {
  const storage = memoryStorage();
  strictEqual(loadRate("/a.webm", storage), 1);
  saveRate("/a.webm", 1.5, storage);
  saveRate("/b.webm", 2, storage);
  strictEqual(loadRate("/a.webm", storage), 1.5);
  strictEqual(loadRate("/b.webm", storage), 2);
  saveRate("/a.webm", 1, storage);
  strictEqual(loadRate("/a.webm", storage), 1);
  strictEqual(storage.map.has("fb:video-rate:/a.webm"), false);
  saveRate("/c.webm", 7, storage);
  strictEqual(storage.map.has("fb:video-rate:/c.webm"), false);
  storage.setItem("fb:video-rate:/d.webm", "NaN");
  strictEqual(loadRate("/d.webm", storage), 1);
});
