/** GET /api/foldersize (docs/api.md#folder-sizes): the gate check, then NDJSON progress and the total. */
import { log } from "../log.ts";
import type { FolderSize, FolderSizeEvent } from "../types.ts";
import { measureFolder } from "./folder_size.ts";
import type { FolderSizeCache } from "./folder_size_cache.ts";
import { type GateContext, resolveScoped } from "./gate.ts";
import { NotFoundError } from "../errors.ts";

/** Options of {@link folderSizeStream}. */
export interface FolderSizeStreamOptions {
  /** None: every request walks. */
  cache?: FolderSizeCache;
  signal?: AbortSignal;
}

/** Checks `vpath` through the gate (403/404 as a status), then returns the NDJSON body of its measurement. */
export async function folderSizeStream(
  ctx: GateContext,
  vpath: string,
  options: FolderSizeStreamOptions = {},
): Promise<ReadableStream<Uint8Array>> {
  const dir = await resolveScoped(ctx, vpath, "read");
  if (dir.stat === null) throw new NotFoundError();
  const enc = new TextEncoder();
  const abort = new AbortController();
  options.signal?.addEventListener("abort", () => abort.abort(), { once: true });
  const line = (event: FolderSizeEvent) => enc.encode(JSON.stringify(event) + "\n");
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const onProgress = (size: FolderSize) => controller.enqueue(line({ type: "progress", ...size }));
      const measureOptions = { signal: abort.signal, onProgress };
      try {
        const { size, cached } = options.cache
          ? await options.cache.measure(dir, measureOptions)
          : { size: await measureFolder(dir, measureOptions), cached: false };
        controller.enqueue(line({ type: "done", ...size, cached }));
        controller.close();
      } catch (err) {
        if (!abort.signal.aborted) throw err;
        log.debug("folder sizes: walk stopped", err);
      }
    },
    cancel() {
      abort.abort();
    },
  });
}
