import { useEffect, useRef, useState } from "react";
import { CHUNK_SIZE_DEBOUNCE_MS, formatChunkSize, parseChunkSize } from "../../client/settings_size.ts";

/** Handle the form uses to apply pending chunk-size text before saving. */
export interface ChunkSizeHandle {
  flush: () => number;
}

/**
 * The chunk size as text ("10MB"): applied 1.5 s after typing stops (or on `flush`), then shown again in the
 * largest unit that fits.
 */
export function ChunkSizeField(
  props: {
    bytes: number;
    onChange: (bytes: number) => void;
    handle: { current: ChunkSizeHandle | null };
    label: string;
  },
) {
  const [text, setText] = useState(() => formatChunkSize(props.bytes));
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pending = useRef<string | null>(null);
  const apply = () => {
    clearTimeout(timer.current);
    if (pending.current === null) return props.bytes;
    const bytes = parseChunkSize(pending.current);
    pending.current = null;
    setText(formatChunkSize(bytes));
    props.onChange(bytes);
    return bytes;
  };
  props.handle.current = { flush: apply };
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <label class="field">
      <span>{props.label}</span>
      <input
        class="input"
        type="text"
        name="chunkSize"
        value={text}
        onKeyDown={(e) => {
          if (e.key === "Enter") apply();
        }}
        onInput={(e) => {
          const v = (e.currentTarget as HTMLInputElement).value;
          setText(v);
          pending.current = v;
          clearTimeout(timer.current);
          timer.current = setTimeout(apply, CHUNK_SIZE_DEBOUNCE_MS);
        }}
      />
    </label>
  );
}
