// This module is browser-compatible.
/**
 * The header actions registry: buttons of the top bar that depend on the page, the selection and the permissions.
 * Other features add theirs from their own files, e.g. `registerHeaderAction({ id: "upload", ... })`.
 * On phones (<= 736 px) every action that is not `pinned` moves into the "more" menu; wider, the trailing ones that
 * do not fit in the bar do.
 */
import { signal } from "@preact/signals";
import type { IconNode } from "lucide";
import type { Resource, StartupConfig, User } from "../lib/types.ts";

/** What an action sees when deciding to show itself and when it runs. */
export interface ActionContext {
  user: User;
  config: StartupConfig;
  /** The selected items of the listing. */
  selected: Resource[];
  /** The current folder (null while loading or when a file is shown). */
  listing: Resource | null;
  /** The current vpath. */
  path: string;
}

/** One header button. */
export interface HeaderAction {
  id: string;
  /** Translation key of the label (also the tooltip and accessible name). */
  labelKey: string;
  icon: IconNode;
  /** Position, ascending. Built-ins use multiples of 10. */
  order: number;
  group: "page" | "selection";
  visible(ctx: ActionContext): boolean;
  run(ctx: ActionContext): void;
  /** For toggles: whether the button shows as pressed. */
  pressed?(ctx: ActionContext): boolean;
  /** Label variant for the current state (e.g. the next view mode), a translation key. */
  label?(ctx: ActionContext): string;
  /** Icon variant for the current state. */
  iconOf?(ctx: ActionContext): IconNode;
  /** Always stays in the bar (e.g. search); the others may move into the "more" menu. */
  pinned?: boolean;
}

/** Registered header actions, sorted by order. */
export const headerActions = signal<readonly HeaderAction[]>([]);

/** Adds an action (an action with the same id is replaced). */
export function registerHeaderAction(action: HeaderAction): void {
  const next = headerActions.value.filter((a) => a.id !== action.id);
  next.push(action);
  next.sort((a, b) => a.order - b.order);
  headerActions.value = next;
}
