// This module is browser-compatible.
/** "Extract here" and "Calculate sizes": the header actions and the extraction call (client/api/extract.ts). */
import PackageOpen from "lucide/dist/esm/icons/package-open.mjs";
import Sigma from "lucide/dist/esm/icons/sigma.mjs";
import { extractFormatOf } from "../lib/extract/formats.ts";
import { formatSize } from "../lib/format.ts";
import { type ActionContext, registerHeaderAction } from "./actions.ts";
import { t } from "./hooks.ts";
import { measureFolderSize } from "./folder_sizes.ts";
import { showPrompt } from "./prompts.ts";
import { items, resource } from "./state.ts";
import { showError, showSuccess } from "./toasts.ts";

const isListing = (ctx: ActionContext) => !!ctx.listing && resource.value?.isDir === true;

registerHeaderAction({
  id: "extract",
  labelKey: "buttons.extract",
  icon: PackageOpen,
  order: 45,
  group: "selection",
  visible: (ctx) =>
    isListing(ctx) && ctx.selected.length === 1 && !ctx.selected[0].isDir && ctx.user.perm.create &&
    extractFormatOf(ctx.selected[0].name) !== null,
  run: (ctx) => showPrompt("extract", { item: ctx.selected[0], dir: ctx.path }),
});

registerHeaderAction({
  id: "folder-sizes",
  labelKey: "buttons.calculateSizes",
  icon: Sigma,
  order: 135,
  group: "page",
  visible: (ctx) => isListing(ctx) && (ctx.selected.length === 0 || ctx.selected.some((i) => i.isDir)),
  run: (ctx) => void calculateSizes(ctx),
});

/** Measures the selected folders (or every folder of the listing), one after the other. */
async function calculateSizes(ctx: ActionContext): Promise<void> {
  const dirs = (ctx.selected.length > 0 ? ctx.selected : items.value).filter((i) => i.isDir);
  let bytes = 0;
  try {
    for (const dir of dirs) bytes += (await measureFolderSize(dir.path)).bytes;
  } catch (err) {
    showError(err);
    return;
  }
  showSuccess(t("files.sizesDone", { size: formatSize(bytes) }));
}
