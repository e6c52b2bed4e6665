import { strictEqual } from "node:assert/strict";
import { buildQuery, resultPath } from "./search.ts";

Deno.test("buildQuery() trims, adds the type filter and refuses an empty search", () => {
  strictEqual(buildQuery("  cat ", null), "cat");
  strictEqual(buildQuery("cat", "image"), "type:image cat");
  strictEqual(buildQuery("   ", "pdf"), "type:pdf");
  strictEqual(buildQuery("   ", null), null);
});

Deno.test("resultPath() joins the base folder and the relative hit path", () => {
  strictEqual(resultPath("/docs/", { dir: false, path: "a/b.txt" }), "/docs/a/b.txt");
  strictEqual(resultPath("/", { dir: true, path: "photos" }), "/photos/");
  strictEqual(resultPath("/x", { dir: false, path: "y" }), "/x/y");
});
