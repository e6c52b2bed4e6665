// This module is browser-compatible.
/** The built-in header actions of the files page (registered when this module loads). */
import Copy from "lucide/dist/esm/icons/copy.mjs";
import Download from "lucide/dist/esm/icons/download.mjs";
import FolderInput from "lucide/dist/esm/icons/folder-input.mjs";
import Images from "lucide/dist/esm/icons/images.mjs";
import Info from "lucide/dist/esm/icons/info.mjs";
import LayoutGrid from "lucide/dist/esm/icons/layout-grid.mjs";
import List from "lucide/dist/esm/icons/list.mjs";
import ListChecks from "lucide/dist/esm/icons/list-checks.mjs";
import Pencil from "lucide/dist/esm/icons/pencil.mjs";
import Trash from "lucide/dist/esm/icons/trash.mjs";
import type { ActionContext } from "./actions.ts";
import { registerHeaderAction } from "./actions.ts";
import { download, nextViewMode, saveViewMode } from "./file_ops.ts";
import { showPrompt } from "./prompts.ts";
import { multiple, resource } from "./state.ts";

const isListing = (ctx: ActionContext) => !!ctx.listing && resource.value?.isDir === true;
const some = (ctx: ActionContext) => isListing(ctx) && ctx.selected.length > 0;

registerHeaderAction({
  id: "rename",
  labelKey: "buttons.rename",
  icon: Pencil,
  order: 20,
  group: "selection",
  visible: (ctx) => isListing(ctx) && ctx.selected.length === 1 && ctx.user.perm.rename,
  run: (ctx) => showPrompt("rename", { item: ctx.selected[0] }),
});

registerHeaderAction({
  id: "copy",
  labelKey: "buttons.copyFile",
  icon: Copy,
  order: 30,
  group: "selection",
  visible: (ctx) => some(ctx) && ctx.user.perm.create,
  run: (ctx) => showPrompt("copy", { items: ctx.selected, path: ctx.path }),
});

registerHeaderAction({
  id: "move",
  labelKey: "buttons.moveFile",
  icon: FolderInput,
  order: 40,
  group: "selection",
  visible: (ctx) => some(ctx) && ctx.user.perm.rename,
  run: (ctx) => showPrompt("move", { items: ctx.selected, path: ctx.path }),
});

registerHeaderAction({
  id: "delete",
  labelKey: "buttons.delete",
  icon: Trash,
  order: 50,
  group: "selection",
  visible: (ctx) => some(ctx) && ctx.user.perm.delete,
  run: (ctx) => showPrompt("delete", { items: ctx.selected }),
});

registerHeaderAction({
  id: "view",
  labelKey: "buttons.switchView",
  icon: LayoutGrid,
  order: 110,
  group: "page",
  visible: isListing,
  run: (ctx) => void saveViewMode(nextViewMode(ctx.user.viewMode)),
  label: (ctx) => `buttons.view.${nextViewMode(ctx.user.viewMode).replace(" ", "-")}`,
  iconOf: (ctx) => viewModeIcon(ctx.user.viewMode),
});

registerHeaderAction({
  id: "download",
  labelKey: "buttons.download",
  icon: Download,
  order: 120,
  group: "page",
  visible: (ctx) => isListing(ctx) && ctx.user.perm.download,
  run: (ctx) => download(ctx.selected, ctx.path),
});

registerHeaderAction({
  id: "info",
  labelKey: "buttons.info",
  icon: Info,
  order: 140,
  group: "page",
  visible: isListing,
  run: () => showPrompt("info"),
});

registerHeaderAction({
  id: "select-multiple",
  labelKey: "buttons.selectMultiple",
  icon: ListChecks,
  order: 150,
  group: "page",
  visible: isListing,
  run: () => multiple.value = !multiple.value,
  pressed: () => multiple.value,
});

// The view-mode button shows what a click switches to.
function viewModeIcon(mode: string): typeof List {
  const next = nextViewMode(mode);
  return next === "list" ? List : next === "mosaic" ? LayoutGrid : Images;
}
