import { useEffect, useState } from "react";
import { island } from "../framework/island.tsx";
import { usePage } from "../client/hooks.ts";
import { IS_BROWSER } from "../client/page.ts";
import { onFilesRoute } from "../client/router.ts";
import { canUseShell, shellOpen } from "../client/shell/state.ts";
import "../client/shell/action.ts";
import { ShellWindow } from "./shell/ShellWindow.tsx";

function ShellPanelImpl() {
  const page = usePage();
  const { config } = page;
  // Mounted on the settings pages too (one shell for client-side navigation), but shown on files URLs only.
  const open = IS_BROWSER && shellOpen.value && onFilesRoute.value;
  // Once opened the panel stays mounted (hidden when closed): its output and a running command survive.
  const [used, setUsed] = useState(false);
  useEffect(() => {
    if (open) setUsed(true);
  }, [open]);
  if (!canUseShell(config, page.user)) return null;
  return (
    <>
      <link
        rel="stylesheet"
        href={`${config.BaseURL}/static/shell.css?v=${encodeURIComponent(config.Version)}`}
      />
      {(open || used) && <ShellWindow open={open} page={page} />}
    </>
  );
}

/**
 * The shell panel at the bottom of the files page (command execution enabled and the execute permission only):
 * an xterm.js terminal loaded when the panel first opens, a prompt line running commands in the current folder
 * over the command runner's WebSocket, a draggable divider. The header's toggle opens and closes it.
 */
export const ShellPanel = island("ShellPanel", ShellPanelImpl);
