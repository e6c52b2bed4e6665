import type { RefObject } from "preact";
import type { CommandHistory } from "../../client/shell/history.ts";

/** Props of PromptLine. */
export interface PromptLineProps {
  /** The working folder, shown as the prompt. */
  folder: string;
  /** A command is running: the line is read-only until it ends. */
  busy: boolean;
  history: CommandHistory;
  inputRef: RefObject<HTMLInputElement | null>;
  t: (key: string, vars?: Record<string, string | number>) => string;
  onRun(line: string): void;
  /** Ctrl+C with no text selected in the line. */
  onInterrupt(): void;
}

/** The shell's input line: the folder as prompt, Enter runs, Up/Down browse the history, Ctrl+C interrupts. */
export function PromptLine(props: PromptLineProps) {
  const { busy, history, t } = props;
  const onKeyDown = (e: KeyboardEvent) => {
    const input = e.currentTarget as HTMLInputElement;
    if (e.ctrlKey && !e.altKey && !e.metaKey && e.key.toLowerCase() === "c") {
      // With text selected Ctrl+C copies, as everywhere else.
      if (input.selectionStart !== input.selectionEnd) return;
      e.preventDefault();
      props.onInterrupt();
      return;
    }
    if (busy || (e.key !== "ArrowUp" && e.key !== "ArrowDown")) return;
    const line = e.key === "ArrowUp" ? history.previous(input.value) : history.next();
    if (line === null) return;
    e.preventDefault();
    input.value = line;
    input.setSelectionRange(line.length, line.length);
  };
  const onSubmit = (e: Event) => {
    e.preventDefault();
    const input = props.inputRef.current;
    if (busy || !input) return;
    const line = input.value;
    input.value = "";
    props.onRun(line);
  };
  return (
    // A command line reads left to right, on right-to-left pages too.
    <form class="shell-prompt" dir="ltr" onSubmit={onSubmit}>
      <span class="shell-cwd" aria-hidden="true" title={props.folder}>
        <bdi dir="ltr">{props.folder}</bdi>
      </span>
      <span class="shell-sign" aria-hidden="true">$</span>
      <input
        ref={props.inputRef}
        type="text"
        class="shell-input"
        dir="ltr"
        aria-label={t("shell.command", { folder: props.folder })}
        aria-keyshortcuts="Control+C ArrowUp ArrowDown"
        placeholder={busy ? t("shell.busy") : undefined}
        autocomplete="off"
        autocapitalize="off"
        autocorrect="off"
        spellcheck={false}
        enterKeyHint="send"
        readOnly={busy}
        data-testid="shell-input"
        onKeyDown={onKeyDown}
      />
    </form>
  );
}
