/** An efficient ReadableStream over an open file, for ArchiveEntry.open(). */
import { log } from "../log.ts";

/** Largest read for a default (non-BYOB) reader. */
const MAX_CHUNK = 256 * 1024;

/**
 * A byte stream of at most `size` bytes of the file (the stat'ed size: the archive is a
 * snapshot, and a file that grows meanwhile is cut there); the file is closed at the end, on
 * error, or on cancel. The archive writers read it with a BYOB reader straight into their
 * output, and the read that would only report EOF is skipped.
 * Use: `open: async () => fileReadable(await Deno.open(path), { size: info.size })`.
 */
export function fileReadable(
  file: Deno.FsFile,
  options: { size: number },
): ReadableStream<Uint8Array<ArrayBuffer>> {
  let left = Math.max(0, options.size);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    try {
      file.close();
    } catch (err) {
      log.debug("archive: closing a file failed", err);
    }
  };
  return new ReadableStream({
    type: "bytes",
    async pull(controller) {
      const request = controller.byobRequest;
      try {
        if (left === 0) {
          close();
          controller.close();
          request?.respond(0);
          return;
        }
        const view = request?.view
          ? new Uint8Array(request.view.buffer, request.view.byteOffset, request.view.byteLength)
          : new Uint8Array(Math.min(left, MAX_CHUNK));
        const target = view.length > left ? view.subarray(0, left) : view;
        const n = await file.read(target);
        if (n === null) {
          close();
          controller.close();
          request?.respond(0);
          return;
        }
        left -= n;
        if (request) request.respond(n);
        else controller.enqueue(n === view.length ? view : view.slice(0, n));
        if (left === 0) {
          close();
          controller.close();
        }
      } catch (err) {
        close();
        controller.error(err);
      }
    },
    cancel() {
      close();
    },
  }) as ReadableStream<Uint8Array<ArrayBuffer>>;
}
