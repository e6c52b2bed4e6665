import type { ComponentChildren } from "preact";
import { enterConfirms, PromptCard } from "./PromptCard.tsx";

/** Props of ConfirmDelete. */
export interface ConfirmDeleteProps {
  title: string;
  message: string;
  testId: string;
  /** Translated button labels. */
  cancelLabel: string;
  deleteLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** Extra content under the message (e.g. a password field). */
  children?: ComponentChildren;
}

/** The one delete confirmation card: Cancel, Delete (focused, danger), Enter confirms. */
export function ConfirmDelete(props: ConfirmDeleteProps) {
  return (
    <PromptCard
      title={props.title}
      testId={props.testId}
      onKeyDown={enterConfirms(props.onConfirm)}
      actions={
        <>
          <button type="button" class="button flat" onClick={props.onCancel}>{props.cancelLabel}</button>
          <button
            type="button"
            class="button danger"
            autoFocus
            disabled={props.busy}
            onClick={props.onConfirm}
          >
            {props.deleteLabel}
          </button>
        </>
      }
    >
      <p>{props.message}</p>
      {props.children}
    </PromptCard>
  );
}
