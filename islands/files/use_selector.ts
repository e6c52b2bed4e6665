// This module is browser-compatible.
/** A hook that re-renders a component only when a value derived from signals changes (not on every change). */
import { effect, untracked } from "@preact/signals";
import { useEffect, useReducer, useRef } from "react";

/**
 * Returns `select()`; re-renders when its result changes. Unlike reading `.value` in render (which subscribes the
 * whole component to the signal), a row of a 100k listing re-renders only when its own `selected` flips.
 */
export function useSelector<T>(select: () => T): T {
  const [, force] = useReducer((n: number, _: number) => n + 1, 0);
  const selectRef = useRef(select);
  selectRef.current = select;
  const value = untracked(select);
  const valueRef = useRef(value);
  valueRef.current = value;
  useEffect(() =>
    effect(() => {
      const next = selectRef.current();
      if (!Object.is(next, valueRef.current)) untracked(() => force(0));
    }), []);
  return value;
}
