import { useEffect, useRef, useState } from "react";
import type { RefObject } from "preact";
import type { TerminalHandle, TerminalOptions } from "../../client/shell/terminal.ts";
import { isDarkTheme, watchTheme } from "../../client/editor/theme.ts";
import { showError } from "../../client/toasts.ts";

/** What useTerminal needs besides the host element. */
export type UseTerminalOptions = Omit<TerminalOptions, "dark">;

/**
 * The xterm terminal of the shell panel: its chunk and stylesheet load when the host first exists, it follows the
 * theme, and it is disposed with the panel. `ready` turns true once output can be written.
 */
export function useTerminal(
  host: RefObject<HTMLElement | null>,
  options: UseTerminalOptions,
): { term: RefObject<TerminalHandle | null>; ready: boolean } {
  const term = useRef<TerminalHandle | null>(null);
  const [ready, setReady] = useState(false);
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    let cancelled = false;
    import("../../client/shell/terminal.ts")
      .then(({ createTerminal }) =>
        createTerminal(host.current!, {
          ...latest.current,
          dark: isDarkTheme(),
          onInterrupt: () => latest.current.onInterrupt(),
          onType: (key) => latest.current.onType(key),
        })
      )
      .then((handle) => {
        if (cancelled) return handle.dispose();
        term.current = handle;
        setReady(true);
      }, (err) => showError(err));
    const unwatch = watchTheme((dark) => term.current?.setDark(dark));
    return () => {
      cancelled = true;
      unwatch();
      term.current?.dispose();
      term.current = null;
    };
  }, []);
  return { term, ready };
}
