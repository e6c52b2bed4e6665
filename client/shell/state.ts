// This module is browser-compatible.
/** The shell panel's shared state: whether it is open (the header toggle and the panel island both use it). */
import { signal } from "@preact/signals";
import type { StartupConfig, User } from "../../lib/types.ts";

/** True while the shell panel is shown. */
export const shellOpen = signal<boolean>(false);

/** Opens or closes the shell panel. */
export function toggleShell(): void {
  shellOpen.value = !shellOpen.value;
}

/** Whether this user may use the shell: command execution enabled on the instance and the execute permission. */
export function canUseShell(config: Pick<StartupConfig, "EnableExec">, user: User | null): boolean {
  return config.EnableExec === true && user?.perm.execute === true;
}
