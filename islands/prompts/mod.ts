// This module is browser-compatible.
/** Registers the built-in prompts (other features register theirs with `registerPrompt` from their own files). */
import { registerPrompt } from "../../client/prompts.ts";
import { DeletePrompt } from "./Delete.tsx";
import { DownloadPrompt } from "./Download.tsx";
import { ErrorPrompt } from "./ErrorPrompt.tsx";
import { ExtractPrompt } from "./Extract.tsx";
import { HelpPrompt } from "./Help.tsx";
import { InfoPrompt } from "./Info.tsx";
import { NewDirPrompt, NewFilePrompt } from "./NewItem.tsx";
import { RenamePrompt } from "./Rename.tsx";
import { ReplacePrompt, ReplaceRenamePrompt } from "./Replace.tsx";
import { SuccessPrompt } from "./SuccessPrompt.tsx";
import { CopyPrompt, MovePrompt } from "./Transfer.tsx";

registerPrompt("help", HelpPrompt);
registerPrompt("error", ErrorPrompt);
registerPrompt("success", SuccessPrompt, { labelKey: "prompts.success.title" });
registerPrompt("info", InfoPrompt);
registerPrompt("newDir", NewDirPrompt);
registerPrompt("newFile", NewFilePrompt);
registerPrompt("rename", RenamePrompt);
registerPrompt("delete", DeletePrompt);
registerPrompt("copy", CopyPrompt);
registerPrompt("move", MovePrompt);
registerPrompt("replace", ReplacePrompt);
registerPrompt("replace-rename", ReplaceRenamePrompt);
registerPrompt("download", DownloadPrompt);
registerPrompt("extract", ExtractPrompt, { labelKey: "prompts.extract.title" });
