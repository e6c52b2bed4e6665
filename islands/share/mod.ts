// This module is browser-compatible.
/** Registers the share dialog, its delete confirmation and the header's share button with the files page. */
import ShareIcon from "lucide/dist/esm/icons/share-2.mjs";
import { registerHeaderAction } from "../../client/actions.ts";
import { registerPrompt, showPrompt } from "../../client/prompts.ts";
import { ShareDeletePrompt } from "./ShareDelete.tsx";
import { SharePrompt } from "./SharePrompt.tsx";

registerPrompt("share", SharePrompt, { labelKey: "share.title" });
registerPrompt("share-delete", ShareDeletePrompt, { labelKey: "share.deleteTitle" });

registerHeaderAction({
  id: "share",
  labelKey: "share.title",
  icon: ShareIcon,
  order: 35,
  group: "selection",
  visible: (ctx) => ctx.selected.length === 1 && ctx.user.perm.share && ctx.user.perm.download,
  run: (ctx) => {
    const item = ctx.selected[0];
    showPrompt("share", { path: item.isDir ? item.path.replace(/\/*$/, "/") : item.path, name: item.name });
  },
});
