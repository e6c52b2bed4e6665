import { useState } from "react";
import { PromptCard } from "../../components/PromptCard.tsx";
import { usePage } from "../../client/hooks.ts";
import { newNameProblem } from "../../lib/names.ts";

/** Props of NamePrompt. */
export interface NamePromptProps {
  title: string;
  label: string;
  submitLabel: string;
  initial?: string;
  /** Select only the base name (before the extension) on focus, as for a rename. */
  selectBase?: boolean;
  /** Runs the action; resolves true to close the prompt. */
  onSubmit: (name: string) => Promise<boolean>;
  close: () => void;
  testId: string;
}

/** Id of the message under the name field (the field is described by it). */
const PROBLEM_ID = "name-problem";

/**
 * A prompt with one name field (new file, new folder, rename); Enter submits, names are trimmed. A name the server
 * would refuse (a separator, `.`/`..`, a control or bidirectional control character, over 255 bytes) is
 * explained under the field and never sent: `a/b` would otherwise read as a path.
 */
export function NamePrompt(props: NamePromptProps) {
  const { t } = usePage();
  const [name, setName] = useState(props.initial ?? "");
  const [busy, setBusy] = useState(false);
  const problem = newNameProblem(name.trim());
  const shown = problem === "empty" ? null : problem;
  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy || problem) return;
    setBusy(true);
    const ok = await props.onSubmit(name.trim());
    setBusy(false);
    if (ok) props.close();
  };
  const onFocus = (e: FocusEvent) => {
    const el = e.currentTarget as HTMLInputElement;
    const dot = el.value.lastIndexOf(".");
    if (props.selectBase && dot > 0) el.setSelectionRange(0, dot);
    else el.select();
  };
  return (
    <form onSubmit={submit}>
      <PromptCard
        title={props.title}
        testId={props.testId}
        actions={
          <>
            <button type="button" class="button flat" onClick={props.close}>{t("buttons.cancel")}</button>
            <button type="submit" class="button" disabled={busy || problem !== null}>
              {props.submitLabel}
            </button>
          </>
        }
      >
        <label class="field">
          <span>{props.label}</span>
          <input
            type="text"
            class="input"
            autoFocus
            value={name}
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
            onFocus={onFocus}
            spellcheck={false}
            autocomplete="off"
            dir="auto"
            aria-invalid={shown ? "true" : undefined}
            aria-describedby={shown ? PROBLEM_ID : undefined}
          />
        </label>
        {shown && <p class="field-problem" id={PROBLEM_ID} role="alert">{t(`prompts.name.${shown}`)}</p>}
      </PromptCard>
    </form>
  );
}
