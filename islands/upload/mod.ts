// This module is browser-compatible.
/**
 * Registers the upload prompt, the abort confirmation and the header's Upload button with the files page
 * (imported by islands/upload/UploadLayer.tsx, which the files page renders).
 */
import { Upload } from "../../components/upload/icons.ts";
import { registerHeaderAction } from "../../client/actions.ts";
import { registerPrompt, showPrompt } from "../../client/prompts.ts";
import { resource } from "../../client/state.ts";
import { canUpload } from "../../client/upload/ui.ts";
import { AbortPrompt } from "./AbortPrompt.tsx";
import { UploadPrompt } from "./UploadPrompt.tsx";

registerPrompt("upload", UploadPrompt, { labelKey: "upload.prompt.title" });
registerPrompt("upload-abort", AbortPrompt, { labelKey: "upload.abort.title" });

registerHeaderAction({
  id: "upload",
  labelKey: "upload.action",
  icon: Upload,
  order: 100,
  group: "page",
  visible: (ctx) => !!ctx.listing && resource.value?.isDir === true && canUpload(ctx.user),
  run: (ctx) => showPrompt("upload", { dest: ctx.path }),
});
