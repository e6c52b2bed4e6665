// This module is browser-compatible.
/**
 * Registers the file views (preview, text editor), the search prompt and their top-bar buttons with the files page.
 * Imported once by the files page island; the heavy parts (CodeMirror, marked, DOMPurify, utif2) load on demand.
 */
import { Save, Search } from "../../components/icons.ts";
import { registerHeaderAction } from "../../client/actions.ts";
import { editorState } from "../../client/editor/state.ts";
import { registerPrompt, showPrompt } from "../../client/prompts.ts";
import { resource } from "../../client/state.ts";
import { registerFileView } from "../../client/views.ts";
import type { Resource } from "../../lib/types.ts";
import { TextFileView } from "../editor/TextFileView.tsx";
import "../editor/actions.ts";
import { SearchOverlay } from "../search/SearchOverlay.tsx";
import { FilePreview } from "./FilePreview.tsx";

const isText = (r: Resource) => r.type === "text" || r.type === "textImmutable";

registerFileView({ id: "editor", match: (r) => !r.isDir && isText(r), component: TextFileView });
registerFileView({ id: "preview", match: (r) => !r.isDir && !isText(r), component: FilePreview });

registerPrompt("search", SearchOverlay, { overlay: false, labelKey: "search.label" });

registerHeaderAction({
  id: "search",
  labelKey: "search.label",
  icon: Search,
  order: 1,
  group: "page",
  pinned: true,
  visible: (ctx) => !!ctx.listing && resource.value?.isDir === true,
  run: () => showPrompt("search"),
});

registerHeaderAction({
  id: "save",
  labelKey: "editor.save",
  icon: Save,
  order: 5,
  group: "page",
  pinned: true,
  visible: () => !!editorState.value && !editorState.value.readOnly,
  run: () => editorState.value?.save(),
});
