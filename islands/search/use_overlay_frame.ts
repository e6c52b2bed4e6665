import { useEffect } from "preact/hooks";
import type { RefObject } from "preact";

/**
 * Places the search overlay under the breadcrumb bar (the trail of the searched folder stays in sight) and closes
 * it on Escape or a click outside (it has no backdrop); `cleanup` runs when it goes away.
 */
export function useOverlayFrame(
  root: RefObject<HTMLElement | null>,
  close: () => void,
  cleanup: () => void,
): void {
  useEffect(() => {
    const dialog = root.current?.closest("dialog");
    const crumbs = document.querySelector(".crumbs-bar")?.getBoundingClientRect();
    if (dialog && crumbs && crumbs.bottom > 0) {
      dialog.style.setProperty("--search-top", `${crumbs.bottom + 4}px`);
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        close();
      }
    };
    const onDown = (e: PointerEvent) => {
      if (dialog && !dialog.contains(e.target as Node)) close();
    };
    addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onDown);
    return () => {
      dialog?.style.removeProperty("--search-top");
      removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onDown);
      cleanup();
    };
  }, []);
}
