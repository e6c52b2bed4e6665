/**
 * Gzip for large PROPFIND answers. A multistatus is 2.5-3.5 times the size of the JSON listing of the same
 * folder and compresses 35-40 to 1, so clients across a network get it compressed when they accept gzip.
 * Clients on this host do not: for them the bytes are nearly free, and decompressing costs them as much or
 * more (measured with Deno's fetch, which hands out 4 KB pieces, and with curl). The gzip of
 * an answer served from the kept children (lib/webdav/propfind_cache.ts) is kept with them and reused while
 * the folder's own entry (the head) is unchanged.
 */

/** True when the client accepts gzip (`Accept-Encoding`, q above 0) and is not on a loopback address. */
export function wantsGzip(request: Request, peer: string | undefined): boolean {
  if (peer !== undefined && isLoopback(peer)) return false;
  const header = request.headers.get("Accept-Encoding");
  if (!header) return false;
  for (const part of header.split(",")) {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (coding.trim() !== "gzip" && coding.trim() !== "x-gzip" && coding.trim() !== "*") continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

function isLoopback(address: string): boolean {
  const a = address.toLowerCase();
  return a === "::1" || a.startsWith("127.") || a.startsWith("::ffff:127.");
}

/** Gzips a stream as it flows. */
export function gzipStream(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  return body.pipeThrough(
    new CompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>,
  );
}

interface KeptGzip {
  head: Uint8Array;
  gz: Promise<Uint8Array<ArrayBuffer>>;
}

const kept = new WeakMap<Uint8Array[], KeptGzip>();

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The gzip of `head`, the kept `children` and `end`: compressed once, shared by concurrent requests, and kept
 * as long as the children are (a WeakMap on their array) while the head stays the same.
 */
export function keptGzip(
  children: Uint8Array[],
  head: Uint8Array,
  end: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  const hit = kept.get(children);
  if (hit !== undefined && sameBytes(hit.head, head)) return hit.gz;
  // The parts are handed to the compressor one at a time (the kept children are shared, never copied).
  const parts = [head, ...children, end];
  let next = 0;
  const plain = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(parts[next++]);
      if (next === parts.length) controller.close();
    },
  }, { highWaterMark: 0 });
  const gz = new Response(gzipStream(plain)).bytes();
  const entry = { head, gz };
  kept.set(children, entry);
  gz.catch(() => kept.get(children) === entry && kept.delete(children));
  return gz;
}
