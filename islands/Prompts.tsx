import { useEffect, useRef } from "react";
import { h } from "preact";
import type { ComponentType } from "preact";
import { island } from "../framework/island.tsx";
import { PROMPT_TITLE_ID } from "../components/PromptCard.tsx";
import { usePage } from "../client/hooks.ts";
import { closePrompt, currentPrompt, promptRegistry, prompts } from "../client/prompts.ts";
import type { PromptProps } from "../client/prompts.ts";
import "./prompts/mod.ts";

const FOCUSABLE =
  "[autofocus], input:not([disabled]), textarea, select, button:not([disabled]), [tabindex='0']";

function PromptsImpl() {
  const { t } = usePage();
  const ref = useRef<HTMLDialogElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const selfClosed = useRef(false);
  const top = currentPrompt.value;
  const def = top ? promptRegistry.value.get(top.name) : undefined;
  const depth = prompts.value.length;

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (def && !d.open) {
      returnTo.current = document.activeElement as HTMLElement | null;
      if (def.overlay) d.showModal();
      else d.show();
    } else if (!def && d.open) {
      selfClosed.current = true;
      d.close();
    }
    if (def) {
      // A new prompt on top (or the one below coming back) gets the focus, preferring [autofocus].
      const target = d.querySelector<HTMLElement>("[autofocus]") ?? d.querySelector<HTMLElement>(FOCUSABLE);
      target?.focus();
    } else if (returnTo.current?.isConnected) {
      returnTo.current.focus();
      returnTo.current = null;
    }
  }, [top, def]);

  useEffect(() => {
    // Esc closes prompts that are not dialogs (sidebar drawer, "more" menu); dialogs get a cancel event.
    const onKey = (e: KeyboardEvent) => {
      const t = currentPrompt.value;
      if (e.key === "Escape" && t && !promptRegistry.value.has(t.name)) {
        e.preventDefault();
        closePrompt();
      }
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);

  return (
    <dialog
      ref={ref}
      class={def && !def.overlay ? "prompt no-overlay" : "prompt"}
      aria-labelledby={def?.labelKey ? undefined : PROMPT_TITLE_ID}
      aria-label={def?.labelKey ? t(def.labelKey) : undefined}
      data-testid="prompt"
      data-prompt={def ? top!.name : undefined}
      onCancel={(e) => {
        e.preventDefault();
        closePrompt();
      }}
      onClose={() => {
        // Our own close() (the stack emptied) fires this too, as a queued event: a prompt shown meanwhile stays.
        if (selfClosed.current) {
          selfClosed.current = false;
          return;
        }
        // The browser may close the dialog itself (repeated Esc); keep the stack in step.
        if (currentPrompt.value && promptRegistry.value.has(currentPrompt.value.name)) closePrompt();
      }}
      onClick={(e) => {
        if (e.target === ref.current && def?.overlay) closePrompt();
      }}
    >
      {def && top &&
        h(def.component as ComponentType<PromptProps>, {
          key: `${depth}:${top.name}`,
          props: top.props,
          close: closePrompt,
        })}
    </dialog>
  );
}

/** The prompts layer: shows the prompt on top of the stack as a modal dialog (focus trapped and returned). */
export const Prompts = island("Prompts", PromptsImpl);
