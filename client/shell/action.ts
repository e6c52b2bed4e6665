// This module is browser-compatible.
/** Registers the header's shell toggle (files page; only with exec enabled and the execute permission). */
import { SquareTerminal } from "../../components/shell/icons.ts";
import { registerHeaderAction } from "../actions.ts";
import { canUseShell, shellOpen, toggleShell } from "./state.ts";

registerHeaderAction({
  id: "shell",
  labelKey: "buttons.shell",
  icon: SquareTerminal,
  order: 160,
  group: "page",
  visible: (ctx) => canUseShell(ctx.config, ctx.user),
  run: toggleShell,
  pressed: () => shellOpen.value,
});
