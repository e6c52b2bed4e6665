import { useState } from "react";
import { PromptCard } from "../../components/PromptCard.tsx";
import { usePage } from "../../client/hooks.ts";

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

/** A prompt with one name field (new file, new folder, rename); Enter submits, names are trimmed. */
export function NamePrompt(props: NamePromptProps) {
  const { t } = usePage();
  const [name, setName] = useState(props.initial ?? "");
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy || !name.trim()) return;
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
            <button type="submit" class="button" disabled={busy || !name.trim()}>{props.submitLabel}</button>
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
          />
        </label>
      </PromptCard>
    </form>
  );
}
