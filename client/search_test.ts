import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { buildQuery, resultPath, search } from "./search.ts";

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

Deno.test("search() hands hits over and reports the truncation line instead of taking it for a hit", async () => {
  const realFetch = globalThis.fetch;
  globalThis.fetch = () =>
    Promise.resolve(
      new Response(
        '{"dir":false,"path":"a.txt"}\n\n{"dir":true,"path":"b"}\n{"truncated":"path_too_long","folders":2}\n',
      ),
    );
  try {
    const paths: string[] = [];
    const truncated: number[] = [];
    await search("/docs/", "a", {
      onResult: (r) => paths.push(r.fullPath),
      onTruncated: (n) => truncated.push(n),
    });
    deepStrictEqual(paths, ["/docs/a.txt", "/docs/b/"]);
    deepStrictEqual(truncated, [2]);
  } finally {
    globalThis.fetch = realFetch;
  }
});
