import type { ComponentChildren } from "preact";

/** Id of the title of the visible prompt (the dialog is labelled by it). */
export const PROMPT_TITLE_ID = "prompt-title";

/** Props of PromptCard. */
export interface PromptCardProps {
  title: string;
  children?: ComponentChildren;
  /** The buttons row. */
  actions?: ComponentChildren;
  class?: string;
  onKeyDown?: (e: KeyboardEvent) => void;
  testId?: string;
}

/** The card a prompt is drawn in: title, content, buttons. */
export function PromptCard(props: PromptCardProps) {
  return (
    <div
      class={props.class ? `card prompt-card ${props.class}` : "card prompt-card"}
      onKeyDown={props.onKeyDown}
      data-testid={props.testId}
    >
      <h2 class="card-title" id={PROMPT_TITLE_ID}>{props.title}</h2>
      {props.children !== undefined && <div class="card-content">{props.children}</div>}
      {props.actions && <div class="card-actions">{props.actions}</div>}
    </div>
  );
}

/** A keydown handler that runs `confirm` on Enter (outside text fields, which submit their own form). */
export function enterConfirms(confirm: () => void): (e: KeyboardEvent) => void {
  return (e) => {
    const el = e.target as HTMLElement;
    if (e.key !== "Enter" || el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "BUTTON") {
      return;
    }
    e.preventDefault();
    confirm();
  };
}
