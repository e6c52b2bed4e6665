// This module is browser-compatible.
/**
 * The text editor: CodeMirror 6 with line numbers, search (Ctrl+F inside the editor), history, bracket matching,
 * syntax highlighting chosen by file name (language packs load on demand) and a light or dark theme.
 * Import this module dynamically: it is the heavy part of the files page and only text files need it.
 */
import { basicSetup } from "codemirror";
import { Compartment, EditorState, Prec } from "@codemirror/state";
import type { Extension, Text } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import { LanguageDescription } from "@codemirror/language";
import { languages } from "@codemirror/language-data";
import { oneDark } from "@codemirror/theme-one-dark";

/** Options of createEditor. */
export interface EditorOptions {
  doc: string;
  /** File name, to pick the syntax highlighting. */
  filename: string;
  readOnly: boolean;
  dark: boolean;
  /** Called after every change with whether the text differs from the last saved text. */
  onDirtyChange?: (dirty: boolean) => void;
  /** Ctrl/Cmd+S inside the editor. */
  onSave?: () => void;
  /** Accessible label of the editing area. */
  label?: string;
}

/** A live editor. */
export interface EditorHandle {
  view: EditorView;
  /** The current text. */
  getText(): string;
  /** Marks the given text (the one just saved) as the clean state. */
  markSaved(text: Text): void;
  /** The current document, to pass to markSaved after a successful save. */
  snapshot(): Text;
  isDirty(): boolean;
  setDark(dark: boolean): void;
  focus(): void;
  destroy(): void;
}

const lightTheme = EditorView.theme({
  "&": { backgroundColor: "var(--surface, #fff)", color: "var(--text, #1f2328)" },
  ".cm-gutters": {
    backgroundColor: "var(--surface-2, #f6f8fa)",
    color: "var(--text-muted, #59636e)",
    borderRight: "1px solid var(--border, #d1d9e0)",
  },
}, { dark: false });

const layout = EditorView.theme({
  "&": { height: "100%", fontSize: "14px" },
  ".cm-scroller": {
    overflow: "auto",
    fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  },
  "&.cm-focused": { outline: "none" },
});

/** The language pack for a file name, loaded on demand; null when none matches. */
export async function languageFor(filename: string): Promise<Extension | null> {
  const desc = LanguageDescription.matchFilename(languages, filename);
  if (!desc) return null;
  try {
    return await desc.load();
  } catch {
    // A chunk that fails to load (offline, redeploy) only costs the highlighting.
    return null;
  }
}

/** Creates an editor in `parent`; highlighting appears once the language pack has loaded. */
export function createEditor(parent: HTMLElement, options: EditorOptions): EditorHandle {
  const theme = new Compartment();
  const language = new Compartment();
  let saved: Text | null = null;
  let dirty = false;
  const setDirty = (next: boolean) => {
    if (next === dirty) return;
    dirty = next;
    options.onDirtyChange?.(dirty);
  };
  const state = EditorState.create({
    doc: options.doc,
    extensions: [
      Prec.highest(keymap.of([{
        key: "Mod-s",
        preventDefault: true,
        run: () => {
          options.onSave?.();
          return true;
        },
      }])),
      basicSetup,
      layout,
      theme.of(options.dark ? oneDark : lightTheme),
      language.of([]),
      EditorState.readOnly.of(options.readOnly),
      EditorView.contentAttributes.of({
        "aria-label": options.label ?? options.filename,
        "data-testid": "editor-content",
      }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged && saved) setDirty(!update.state.doc.eq(saved));
      }),
    ],
  });
  saved = state.doc;
  const view = new EditorView({ state, parent });
  void languageFor(options.filename).then((ext) => {
    if (ext && !destroyed) view.dispatch({ effects: language.reconfigure(ext) });
  });
  let destroyed = false;
  return {
    view,
    getText: () => view.state.doc.toString(),
    snapshot: () => view.state.doc,
    markSaved(text) {
      saved = text;
      setDirty(!view.state.doc.eq(text));
    },
    isDirty: () => dirty,
    setDark(dark) {
      view.dispatch({ effects: theme.reconfigure(dark ? oneDark : lightTheme) });
    },
    focus: () => view.focus(),
    destroy() {
      destroyed = true;
      view.destroy();
    },
  };
}
