import { useState } from "react";
import { ConfirmDelete } from "../../components/ConfirmDelete.tsx";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";
import { deleteItems } from "../../client/file_ops.ts";
import type { TransferItem } from "../../client/file_ops.ts";

/** The delete confirmation (singular or plural with the count). */
export function DeletePrompt(props: PromptProps<{ items: TransferItem[]; onDone?: () => void }>) {
  const { t } = usePage();
  const [busy, setBusy] = useState(false);
  const items = props.props.items;
  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    await deleteItems(items);
    props.close();
    props.props.onDone?.();
  };
  const message = items.length === 1
    ? t("prompts.delete.one", { name: items[0].name })
    : t("prompts.delete.many", { count: items.length });
  return (
    <ConfirmDelete
      title={t("prompts.delete.title")}
      testId="delete"
      message={message}
      cancelLabel={t("buttons.cancel")}
      deleteLabel={t("buttons.delete")}
      busy={busy}
      onConfirm={confirm}
      onCancel={props.close}
    />
  );
}
