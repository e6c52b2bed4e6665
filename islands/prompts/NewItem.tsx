import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";
import { createFile, createFolder } from "../../client/file_ops.ts";
import { currentPath } from "../../client/state.ts";
import { NamePrompt } from "./NameInput.tsx";

/** Props of the new-folder prompt (`redirect` defaults to true, `base` to the current folder). */
export interface NewDirProps {
  base?: string;
  redirect?: boolean;
  /** Called after the folder was created (the folder picker refreshes with it). */
  onCreated?: (path: string) => void;
}

/** The new-folder prompt. */
export function NewDirPrompt(props: PromptProps<NewDirProps>) {
  const { t } = usePage();
  const base = props.props.base ?? currentPath.value;
  return (
    <NamePrompt
      title={t("prompts.newDir.title")}
      label={t("prompts.newDir.message")}
      submitLabel={t("buttons.create")}
      testId="new-dir"
      close={props.close}
      onSubmit={async (name) => {
        const ok = await createFolder(base, name, { redirect: props.props.redirect ?? true });
        if (ok) props.props.onCreated?.(name);
        return ok;
      }}
    />
  );
}

/** The new-file prompt. */
export function NewFilePrompt(props: PromptProps<{ base?: string }>) {
  const { t } = usePage();
  const base = props.props.base ?? currentPath.value;
  return (
    <NamePrompt
      title={t("prompts.newFile.title")}
      label={t("prompts.newFile.message")}
      submitLabel={t("buttons.create")}
      testId="new-file"
      close={props.close}
      onSubmit={(name) => createFile(base, name)}
    />
  );
}
