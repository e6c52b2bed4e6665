// This module is browser-compatible.
/** A bar that moves its trailing buttons into a menu, one at a time, until it no longer overflows. */
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { RefObject } from "preact";

/**
 * How many of the bar's `movable` trailing items must go into its menu so that `ref` does not overflow
 * (scrollWidth > clientWidth). Measured again, from none moved, when `key` (what the bar shows) or the bar's
 * width changes; the steps run before the browser paints.
 */
export function useOverflowCount(ref: RefObject<HTMLElement | null>, movable: number, key: string): number {
  const [count, setCount] = useState(0);
  const [width, setWidth] = useState(0);
  const last = useRef({ key, width });
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver !== "function") return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (last.current.key !== key || last.current.width !== width) {
      last.current = { key, width };
      if (count !== 0) {
        setCount(0);
        return;
      }
    }
    if (el.scrollWidth > el.clientWidth && count < movable) setCount(count + 1);
  });
  return Math.min(count, movable);
}
