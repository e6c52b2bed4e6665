import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";
import { joinPath, parentPath } from "../../lib/url_path.ts";
import { renameItem } from "../../client/file_ops.ts";
import type { TransferItem } from "../../client/file_ops.ts";
import { NamePrompt } from "./NameInput.tsx";
import { isolate } from "../../lib/bidi.ts";

/** The rename prompt: the old name pre-filled, Enter submits. */
export function RenamePrompt(props: PromptProps<{ item: TransferItem; onRenamed?: (path: string) => void }>) {
  const { t } = usePage();
  const item = props.props.item;
  return (
    <NamePrompt
      title={t("prompts.rename.title")}
      label={t("prompts.rename.message", { name: isolate(item.name) })}
      submitLabel={t("buttons.rename")}
      initial={item.name}
      selectBase
      testId="rename"
      close={props.close}
      onSubmit={async (name) => {
        const ok = await renameItem(item, name);
        if (ok && name.trim() && name.trim() !== item.name) {
          props.props.onRenamed?.(joinPath(parentPath(item.path), name.trim()));
        }
        return ok;
      }}
    />
  );
}
