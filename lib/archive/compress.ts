/** The compressors behind the tar.* formats, and which of them this server can run. */
import zlib from "node:zlib";
import { Duplex } from "node:stream";
import { UnavailableError } from "../errors.ts";
import { loadLz4, lz4FrameStream } from "./lz4.ts";
import { loadSnappy, snappyFrameStream } from "./snappy.ts";
import { isToolInstalled, spawnCompressor, type ToolCommand, toolMissingError } from "./spawn.ts";

/** A compressed tar flavour. */
export type TarCompression = "gz" | "bz2" | "xz" | "lz4" | "sz" | "br" | "zst";

/** Paths of the system tools (defaults: looked up in PATH). Injectable for tests. */
export interface ToolPaths {
  bzip2?: string;
  xz?: string;
}

type ByteStream = ReadableStream<Uint8Array<ArrayBuffer>>;

// Brotli's default quality (11) compresses at a few MiB/s; 5 is close in ratio and ~30x faster.
const BROTLI_QUALITY = 5;

function toolCommand(compression: "bz2" | "xz", tools: ToolPaths): ToolCommand {
  // -T1: xz's multi-threaded mode buffers whole blocks (slow first byte, more memory).
  return compression === "bz2"
    ? { tool: "bzip2", path: tools.bzip2 ?? "bzip2", args: ["-c"] }
    : { tool: "xz", path: tools.xz ?? "xz", args: ["-c", "-T1", "-1"] };
}

function hasBrotliCompressionStream(): boolean {
  try {
    new CompressionStream("brotli" as CompressionFormat);
    return true;
  } catch {
    // A runtime without Deno's brotli extension throws a TypeError: fall back to node:zlib.
    return false;
  }
}

/**
 * Wraps a node:zlib stream as a TransformStream. (Duplex.toWeb is not used: in Deno it neither
 * propagates cancellation to the source nor keeps input bounded.) Each write resolves once
 * zlib has consumed the chunk, so at most one chunk's output is in flight.
 */
function nodeZlibStream(z: Duplex): TransformStream<Uint8Array, Uint8Array<ArrayBuffer>> {
  let failed: unknown = null;
  return new TransformStream<Uint8Array, Uint8Array<ArrayBuffer>>({
    start(controller) {
      z.on("data", (chunk: Uint8Array) => {
        controller.enqueue(
          new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength) as Uint8Array<ArrayBuffer>,
        );
      });
      z.on("error", (err: unknown) => {
        failed = err;
        controller.error(err);
      });
    },
    transform(chunk) {
      return new Promise<void>((resolve, reject) => {
        z.write(chunk, (err?: Error | null) => (err || failed ? reject(err ?? failed) : resolve()));
      });
    },
    flush() {
      return new Promise<void>((resolve, reject) => {
        z.once("end", resolve);
        z.once("error", reject);
        z.end();
      });
    },
    cancel() {
      z.destroy();
    },
  });
}

function brotliStream(): TransformStream<Uint8Array, Uint8Array<ArrayBuffer>> {
  if (hasBrotliCompressionStream()) {
    return new CompressionStream("brotli" as CompressionFormat) as TransformStream<
      Uint8Array,
      Uint8Array<ArrayBuffer>
    >;
  }
  return nodeZlibStream(zlib.createBrotliCompress({
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY },
  }));
}

/** Compresses a tar stream; cancelling the result cancels `tar` (and kills a tool process). */
export function compressTar(
  tar: ByteStream,
  compression: TarCompression,
  options: { tools?: ToolPaths } = {},
): ByteStream {
  switch (compression) {
    case "gz":
      return tar.pipeThrough(
        new CompressionStream("gzip") as TransformStream<Uint8Array, Uint8Array<ArrayBuffer>>,
      );
    case "br":
      return tar.pipeThrough(brotliStream());
    case "zst":
      return tar.pipeThrough(nodeZlibStream(zlib.createZstdCompress()));
    case "lz4":
      return tar.pipeThrough(lz4FrameStream());
    case "sz":
      return tar.pipeThrough(snappyFrameStream());
    case "bz2":
    case "xz":
      return spawnCompressor(tar, toolCommand(compression, options.tools ?? {}));
  }
}

async function canLoad(load: () => Promise<unknown>): Promise<boolean> {
  try {
    await load();
    return true;
  } catch {
    // The native addon is missing for this platform; the format is reported as unavailable.
    return false;
  }
}

/** Throws UnavailableError (503) naming what is missing when the compression cannot run here. */
export async function assertCompressionAvailable(
  compression: TarCompression,
  options: { tools?: ToolPaths } = {},
): Promise<void> {
  switch (compression) {
    case "bz2":
    case "xz": {
      const command = toolCommand(compression, options.tools ?? {});
      if (!(await isToolInstalled(command.path))) throw toolMissingError(command);
      return;
    }
    case "zst":
      if (typeof zlib.createZstdCompress !== "function") throw missing("node:zlib zstd support");
      return;
    case "lz4":
      if (!(await canLoad(loadLz4))) throw missing('the "lz4-napi" module');
      return;
    case "sz":
      if (!(await canLoad(loadSnappy))) throw missing('the "snappy" module');
      return;
    case "gz":
    case "br":
      return;
  }
}

function missing(what: string): UnavailableError {
  return new UnavailableError("archive_tool_missing", `Cannot create the archive: ${what} is not available`);
}
