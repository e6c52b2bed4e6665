// This module is browser-compatible.
/**
 * The editor is a full screen with its own bar, like the preview: close (also Esc), download, rename, share, delete
 * and info for the open text file, as header actions shown only while a text file is open.
 */
import ShareIcon from "lucide/dist/esm/icons/share-2.mjs";
import { Download, Info, Pencil, Trash2, X } from "../../components/icons.ts";
import type { ActionContext } from "../../client/actions.ts";
import { registerHeaderAction } from "../../client/actions.ts";
import { filesUrl } from "../../client/page.ts";
import { parentPath } from "../../lib/url_path.ts";
import { rawUrl } from "../../client/api/mod.ts";
import { editorState } from "../../client/editor/state.ts";
import { startDownload } from "../../client/file_ops.ts";
import { showPrompt } from "../../client/prompts.ts";
import { navigate } from "../../client/router.ts";
import { resource, returnFocus } from "../../client/state.ts";

/** The open text file, or null when the editor is not shown. */
function openFile(): { path: string; name: string } | null {
  const r = resource.value;
  return editorState.value && r && !r.isDir ? { path: r.path, name: r.name } : null;
}

const inEditor = () => openFile() !== null;

/** Leaves the editor for the file's folder (the unsaved-changes guard of the editor still asks first). */
export function closeEditor(): void {
  const file = openFile();
  if (!file) return;
  returnFocus.value = file.path;
  navigate(filesUrl(parentPath(file.path), { isDir: true }));
}

registerHeaderAction({
  id: "editor-close",
  labelKey: "preview.close",
  icon: X,
  order: 0,
  group: "page",
  pinned: true,
  visible: inEditor,
  run: closeEditor,
});

registerHeaderAction({
  id: "editor-download",
  labelKey: "buttons.download",
  icon: Download,
  order: 121,
  group: "page",
  visible: (ctx: ActionContext) => inEditor() && ctx.user.perm.download,
  run: () => {
    const file = openFile();
    if (file) startDownload(rawUrl(file.path));
  },
});

registerHeaderAction({
  id: "editor-rename",
  labelKey: "buttons.rename",
  icon: Pencil,
  order: 21,
  group: "page",
  visible: (ctx: ActionContext) => inEditor() && ctx.user.perm.rename,
  run: () => {
    const file = openFile();
    if (!file) return;
    showPrompt("rename", { item: file, onRenamed: (path: string) => navigate(filesUrl(path)) });
  },
});

registerHeaderAction({
  id: "editor-share",
  labelKey: "share.title",
  icon: ShareIcon,
  order: 36,
  group: "page",
  visible: (ctx: ActionContext) => inEditor() && ctx.user.perm.share && ctx.user.perm.download,
  run: () => {
    const file = openFile();
    if (file) showPrompt("share", file);
  },
});

registerHeaderAction({
  id: "editor-delete",
  labelKey: "buttons.delete",
  icon: Trash2,
  order: 51,
  group: "page",
  visible: (ctx: ActionContext) => inEditor() && ctx.user.perm.delete,
  run: () => {
    const file = openFile();
    if (!file) return;
    showPrompt("delete", {
      items: [file],
      onDone: () => navigate(filesUrl(parentPath(file.path), { isDir: true })),
    });
  },
});

registerHeaderAction({
  id: "editor-info",
  labelKey: "buttons.info",
  icon: Info,
  order: 141,
  group: "page",
  visible: inEditor,
  run: () => showPrompt("info"),
});
