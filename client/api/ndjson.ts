// This module is browser-compatible.
/** Streamed answers: search, extraction and folder sizes send NDJSON, one object a line as it is found. */

/** Splits a byte stream of NDJSON into parsed objects; blank lines are skipped, a last unterminated line counts. */
export async function* ndjson<T>(body: ReadableStream<Uint8Array>): AsyncGenerator<T> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line) yield JSON.parse(line) as T;
      }
    }
    const last = (buffer + decoder.decode()).trim();
    if (last) yield JSON.parse(last) as T;
  } finally {
    reader.releaseLock();
  }
}

/** The NDJSON lines of an answer (none when it has no body). */
export async function* ndjsonOf<T>(res: Response): AsyncGenerator<T> {
  if (res.body) yield* ndjson<T>(res.body);
}
