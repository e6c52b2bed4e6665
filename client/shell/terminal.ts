// This module is browser-compatible.
/**
 * The shell's output terminal (xterm.js), loaded on demand when the panel first opens so the files page does not
 * carry it. Output only: the command is typed in the panel's prompt line. Colours follow the app theme; the
 * terminal keeps the size of its host (fit addon).
 */
import { Terminal } from "@xterm/xterm";
import type { ITheme } from "@xterm/xterm";
import { FitAddon } from "@xterm/addon-fit";

/** ANSI colours readable on the light surface (AA contrast for the normal colours). */
const LIGHT: ITheme = {
  black: "#24292f",
  red: "#c4291c",
  green: "#116329",
  yellow: "#7d4e00",
  blue: "#0550ae",
  magenta: "#8250df",
  cyan: "#12676f",
  white: "#57606a",
  brightBlack: "#57606a",
  brightRed: "#a40e26",
  brightGreen: "#1a7f37",
  brightYellow: "#633c01",
  brightBlue: "#1f5bd1",
  brightMagenta: "#6e3fc6",
  brightCyan: "#0b5a62",
  brightWhite: "#24292f",
  selectionBackground: "#b7cdf7",
};

/** ANSI colours readable on the dark surface. */
const DARK: ITheme = {
  black: "#6e7681",
  red: "#ff8a80",
  green: "#6fd68f",
  yellow: "#e3b341",
  blue: "#7aa7ff",
  magenta: "#d2a8ff",
  cyan: "#56d4dd",
  white: "#c9d1d9",
  brightBlack: "#8b949e",
  brightRed: "#ffa198",
  brightGreen: "#8ee6a8",
  brightYellow: "#f2cc60",
  brightBlue: "#a5c4ff",
  brightMagenta: "#e2c5ff",
  brightCyan: "#8ae4ea",
  brightWhite: "#f0f3f6",
  selectionBackground: "#2f4a78",
};

/** Options of createTerminal. */
export interface TerminalOptions {
  dark: boolean;
  /** URL of xterm's stylesheet (added to the document once). */
  cssUrl: string;
  /** Accessible name of the output and the text announced for floods of output. */
  strings: { label: string; tooMuchOutput: string };
  /** Ctrl+C pressed in the terminal with nothing selected. */
  onInterrupt(): void;
  /** A printable key pressed in the terminal (the panel moves it to the prompt line). */
  onType(key: string): void;
}

/** The terminal as the panel uses it. */
export interface TerminalHandle {
  write(text: string): void;
  clear(): void;
  setDark(dark: boolean): void;
  dispose(): void;
}

function loadCss(url: string): Promise<void> {
  const id = "xterm-css";
  const existing = document.getElementById(id) as HTMLLinkElement | null;
  if (existing?.dataset.loaded) return Promise.resolve();
  const link = existing ??
    Object.assign(document.createElement("link"), { id, rel: "stylesheet", href: url });
  const done = new Promise<void>((resolve) => {
    link.addEventListener("load", () => {
      link.dataset.loaded = "1";
      resolve();
    }, { once: true });
    // Without the stylesheet the terminal still works, only less tidy.
    link.addEventListener("error", () => resolve(), { once: true });
  });
  if (!existing) document.head.append(link);
  return done;
}

function themeFor(host: HTMLElement, dark: boolean): ITheme {
  // The host is drawn with the app's surface and text colours: the terminal takes them (custom CSS included).
  const style = getComputedStyle(host);
  const fg = style.color;
  return { ...(dark ? DARK : LIGHT), background: style.backgroundColor, foreground: fg, cursor: fg };
}

/** Opens a terminal in `host` (after xterm's stylesheet has loaded). */
export async function createTerminal(host: HTMLElement, options: TerminalOptions): Promise<TerminalHandle> {
  await loadCss(options.cssUrl);
  Terminal.strings.promptLabel = options.strings.label;
  Terminal.strings.tooMuchOutput = options.strings.tooMuchOutput;
  const term = new Terminal({
    disableStdin: true,
    convertEol: true,
    cursorBlink: false,
    cursorInactiveStyle: "none",
    screenReaderMode: true,
    scrollback: 5000,
    fontFamily: getComputedStyle(host).fontFamily,
    fontSize: 13,
    lineHeight: 1.15,
    theme: themeFor(host, options.dark),
  });
  const fit = new FitAddon();
  term.loadAddon(fit);
  term.attachCustomKeyEventHandler((e) => {
    if (e.type !== "keydown") return true;
    if (e.ctrlKey && !e.altKey && !e.metaKey && e.key.toLowerCase() === "c" && !term.hasSelection()) {
      options.onInterrupt();
      return false;
    }
    if (e.key.length === 1 && !e.ctrlKey && !e.altKey && !e.metaKey) {
      e.preventDefault();
      options.onType(e.key);
      return false;
    }
    return true;
  });
  term.open(host);
  // Output only: no cursor.
  term.write("\x1b[?25l");
  let frame = 0;
  const observer = new ResizeObserver(() => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      if (host.clientHeight > 0 && host.clientWidth > 0) fit.fit();
    });
  });
  observer.observe(host);
  fit.fit();
  return {
    write: (text) => term.write(text),
    clear: () => term.clear(),
    setDark: (dark) => term.options.theme = themeFor(host, dark),
    dispose() {
      cancelAnimationFrame(frame);
      observer.disconnect();
      term.dispose();
    },
  };
}
