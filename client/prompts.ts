// This module is browser-compatible.
/**
 * The prompts layer: a stack of named prompts (showing pushes, closing pops, the top one is visible) and a registry
 * of prompt components, so other code can add prompts from its own files:
 *
 *   registerPrompt("share", SharePrompt);            // once, at module load
 *   showPrompt("share", { path: "/a.txt" });          // later, from an action
 *
 * Names without a registered component ("sidebar", "more") are states read by the layout islands themselves.
 */
import { computed, signal } from "@preact/signals";
import type { ComponentType } from "preact";

/** One entry of the prompt stack. */
export interface PromptEntry {
  name: string;
  // deno-lint-ignore no-explicit-any -- each prompt defines its own props; callbacks are allowed (never serialised)
  props: Record<string, any>;
}

/** Props every prompt component receives. */
// deno-lint-ignore no-explicit-any -- see PromptEntry.props
export interface PromptProps<P = Record<string, any>> {
  props: P;
  /** Pops this prompt. */
  close: () => void;
}

/** A registered prompt. */
export interface PromptDefinition {
  // deno-lint-ignore no-explicit-any -- heterogenous registry
  component: ComponentType<PromptProps<any>>;
  /** Dim the page and close on an overlay click (default true). */
  overlay: boolean;
  /** Accessible name of the dialog: a translation key. */
  labelKey?: string;
}

/** The prompt stack, bottom first. */
export const prompts = signal<PromptEntry[]>([]);

/** The prompt on top of the stack, or null. */
export const currentPrompt = computed<PromptEntry | null>(() => prompts.value.at(-1) ?? null);

/** Registered prompt components by name. */
export const promptRegistry = signal<ReadonlyMap<string, PromptDefinition>>(new Map());

/** Registers (or replaces) the component shown for a prompt name. */
export function registerPrompt<P>(
  name: string,
  component: ComponentType<PromptProps<P>>,
  options: { overlay?: boolean; labelKey?: string } = {},
): void {
  const next = new Map(promptRegistry.value);
  next.set(name, {
    component: component as PromptDefinition["component"],
    overlay: options.overlay ?? true,
    labelKey: options.labelKey,
  });
  promptRegistry.value = next;
}

/** Pushes a prompt on the stack. */
// deno-lint-ignore no-explicit-any -- see PromptEntry.props
export function showPrompt(name: string, props: Record<string, any> = {}): void {
  prompts.value = [...prompts.value, { name, props }];
}

/** Pops the top prompt. */
export function closePrompt(): void {
  if (prompts.value.length) prompts.value = prompts.value.slice(0, -1);
}

/** Closes every prompt. */
export function closeAllPrompts(): void {
  if (prompts.value.length) prompts.value = [];
}

/** True while a prompt with this name is on top. */
export function isPromptOpen(name: string): boolean {
  return currentPrompt.value?.name === name;
}
