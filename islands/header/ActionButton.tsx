import { Icon } from "../../components/Icon.tsx";
import { Check, LoaderCircle } from "../../components/icons.ts";
import type { ActionContext, HeaderAction } from "../../client/actions.ts";
import { buttonStates } from "../../client/button_state.ts";
import { closePrompt } from "../../client/prompts.ts";

/** Props of ActionButton. */
export interface ActionButtonProps {
  action: HeaderAction;
  ctx: ActionContext;
  t: (k: string) => string;
  menu?: boolean;
  /** In the bar: moved into the menu (the bar is too narrow). In the menu: also shown in the bar. */
  moved?: boolean;
}

/** One header action: a bar button, or an item of the overflow menu, with its loading and success states. */
export function ActionButton(props: ActionButtonProps) {
  const { action, ctx } = props;
  const label = props.t(action.label?.(ctx) ?? action.labelKey);
  const pressed = action.pressed?.(ctx);
  const state = buttonStates.value.get(action.id);
  const run = () => {
    if (props.menu) closePrompt();
    action.run(ctx);
  };
  return (
    <button
      type="button"
      class={props.menu
        ? (props.moved ? "menu-item" : "menu-item in-bar")
        : action.pinned
        ? "action"
        : props.moved
        ? "action in-menu-on-mobile overflowed"
        : "action in-menu-on-mobile"}
      role={props.menu ? (pressed === undefined ? "menuitem" : "menuitemcheckbox") : undefined}
      title={label}
      aria-label={props.menu ? undefined : label}
      aria-pressed={props.menu || pressed === undefined ? undefined : pressed}
      aria-checked={props.menu && pressed !== undefined ? pressed : undefined}
      data-action={action.id}
      data-state={state}
      aria-busy={state === "loading" ? true : undefined}
      disabled={state !== undefined}
      onClick={run}
    >
      <Icon
        node={state === "loading"
          ? LoaderCircle
          : state === "success"
          ? Check
          : action.iconOf?.(ctx) ?? action.icon}
        class={state ? `state-${state}` : undefined}
      />
      {props.menu && <span>{label}</span>}
    </button>
  );
}
