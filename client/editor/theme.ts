// This module is browser-compatible.
/** Whether the page is dark: the `data-theme` of <html> ("light"/"dark"), else the system preference. */

const DARK_QUERY = "(prefers-color-scheme: dark)";

/** True when the app currently shows its dark theme. */
export function isDarkTheme(): boolean {
  const theme = document.documentElement.dataset.theme;
  if (theme === "dark") return true;
  if (theme === "light") return false;
  return globalThis.matchMedia?.(DARK_QUERY).matches ?? false;
}

/** Calls `onChange(dark)` whenever the app theme or the system preference changes; returns the unsubscriber. */
export function watchTheme(onChange: (dark: boolean) => void): () => void {
  let last = isDarkTheme();
  const check = () => {
    const dark = isDarkTheme();
    if (dark !== last) onChange(last = dark);
  };
  const observer = new MutationObserver(check);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  const media = globalThis.matchMedia?.(DARK_QUERY);
  media?.addEventListener("change", check);
  return () => {
    observer.disconnect();
    media?.removeEventListener("change", check);
  };
}
