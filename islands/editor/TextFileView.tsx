import { useEffect, useRef, useState } from "preact/hooks";
import { saveText } from "../../client/api/mod.ts";
import type { EditorHandle } from "../../client/editor/codemirror.ts";
import { guardUnsaved } from "../../client/editor/guard.ts";
import { isDarkTheme, watchTheme } from "../../client/editor/theme.ts";
import { usePage } from "../../client/hooks.ts";
import { showError, showSuccess } from "../../client/toasts.ts";
import { currentPrompt } from "../../client/prompts.ts";
import { closeEditor } from "./actions.ts";
import { EditorToolbar } from "../../components/editor/EditorToolbar.tsx";
import type { EditorTab } from "../../components/editor/EditorToolbar.tsx";
import { EDITOR_CSS } from "../../components/editor/styles.ts";
import type { Resource } from "../../lib/types.ts";
import { CsvView } from "../preview/CsvView.tsx";
import { MarkdownView } from "../preview/MarkdownView.tsx";
import { editorState } from "../../client/editor/state.ts";

/** Props of TextFileView. */
export interface TextFileViewProps {
  resource: Resource;
}

type Mode = "source" | "rendered";

function renderedKind(resource: Resource): "markdown" | "csv" | null {
  const ext = resource.extension.toLowerCase();
  if (ext === ".md" || ext === ".markdown") return "markdown";
  if (ext === ".csv") return "csv";
  return null;
}

/** The view of a text file; a new file gets a fresh editor (the files page may reuse the view between files). */
export function TextFileView(props: TextFileViewProps) {
  return <TextFile key={props.resource.path} resource={props.resource} />;
}

/**
 * The view of a text file: CodeMirror with highlighting by extension, read-only without the modify permission
 * (or for `textImmutable`); Markdown and CSV files open rendered, with a tab for the source.
 */
function TextFile(props: TextFileViewProps) {
  const { resource } = props;
  const { user, t } = usePage();
  const readOnly = resource.type !== "text" || !user?.perm.modify;
  const kind = renderedKind(resource);
  // A new (empty) Markdown or CSV file opens on its source: there is nothing to render yet.
  const [mode, setMode] = useState<Mode>(kind && resource.content ? "rendered" : "source");
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [editorReady, setEditorReady] = useState(false);
  /** The text shown by the rendered view: undefined = the file as loaded, else the editor's current text. */
  const [renderedText, setRenderedText] = useState<string | undefined>(undefined);
  const host = useRef<HTMLDivElement>(null);
  const handle = useRef<EditorHandle | null>(null);
  const savingRef = useRef(false);
  const hasContent = typeof resource.content === "string";

  async function save() {
    const editor = handle.current;
    if (!editor || readOnly || savingRef.current) return;
    savingRef.current = true;
    setSaving(true);
    const snapshot = editor.snapshot();
    try {
      await saveText(resource.path, snapshot.toString());
      editor.markSaved(snapshot);
      showSuccess(t("editor.saved"));
    } catch (err) {
      // The text stays in the editor, still marked unsaved, so nothing typed is lost.
      showError(err, t("editor.saveFailed", { name: resource.name }));
    } finally {
      savingRef.current = false;
      setSaving(false);
    }
  }
  const saveRef = useRef(save);
  saveRef.current = save;

  // The editor is created once the source view is first shown, from a chunk loaded on demand.
  const wantEditor = mode === "source" && hasContent;
  useEffect(() => {
    if (!wantEditor || handle.current || !host.current) return;
    let cancelled = false;
    import("../../client/editor/codemirror.ts").then(({ createEditor }) => {
      if (cancelled || !host.current) return;
      handle.current = createEditor(host.current, {
        doc: resource.content ?? "",
        filename: resource.name,
        readOnly,
        dark: isDarkTheme(),
        label: resource.name,
        onDirtyChange: setDirty,
        onSave: () => void saveRef.current(),
      });
      setEditorReady(true);
    }, (err) => showError(err));
    return () => {
      cancelled = true;
    };
  }, [wantEditor]);

  useEffect(() => () => {
    handle.current?.destroy();
    handle.current = null;
  }, []);

  useEffect(() => watchTheme((dark) => handle.current?.setDark(dark)), []);

  useEffect(() => {
    editorState.value = { path: resource.path, readOnly, save: () => void saveRef.current() };
    const unguard = guardUnsaved({
      isDirty: () => handle.current?.isDirty() ?? false,
      message: t("editor.leaveConfirm"),
    });
    // Ctrl+S anywhere on the page while a text file is open (inside the editor its own keymap answers first).
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s") {
        e.preventDefault();
        e.stopImmediatePropagation();
        void saveRef.current();
      }
    };
    // Esc leaves the editor unless something inside it used the key (CodeMirror's search panel, completion).
    const onEscape = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented || currentPrompt.value) return;
      e.preventDefault();
      closeEditor();
    };
    addEventListener("keydown", onKey, true);
    addEventListener("keydown", onEscape);
    return () => {
      unguard();
      removeEventListener("keydown", onKey, true);
      removeEventListener("keydown", onEscape);
      editorState.value = null;
    };
  }, [resource.path]);

  function switchMode(next: string) {
    if (next === mode) return;
    if (next === "rendered" && handle.current) setRenderedText(handle.current.getText());
    setMode(next as Mode);
  }

  const tabs: EditorTab[] | undefined = kind
    ? [
      { id: "rendered", label: t(kind === "csv" ? "editor.table" : "editor.rendered") },
      { id: "source", label: t(readOnly ? "editor.source" : "editor.edit") },
    ]
    : undefined;

  return (
    <section class="editor-view" data-testid="editor-view" data-readonly={readOnly ? "true" : "false"}>
      <style>{EDITOR_CSS}</style>
      <EditorToolbar
        name={resource.name}
        dirty={dirty}
        readOnly={readOnly}
        saving={saving}
        tabs={tabs}
        activeTab={mode}
        onTab={switchMode}
        t={t}
      />
      {!hasContent && <p class="view-message" role="note">{t("editor.noContent")}</p>}
      {hasContent && mode === "rendered" && kind === "markdown" && (
        <div class="editor-rendered">
          <MarkdownView text={renderedText ?? resource.content ?? ""} path={resource.path} t={t} />
        </div>
      )}
      {hasContent && mode === "rendered" && kind === "csv" && (
        <div class="editor-rendered">
          <CsvView path={resource.path} text={renderedText} fallback={resource.content} t={t} />
        </div>
      )}
      <div
        class="editor-host"
        ref={host}
        hidden={mode !== "source" || !hasContent}
        data-ready={editorReady ? "true" : undefined}
        aria-busy={mode === "source" && !editorReady}
      />
    </section>
  );
}
