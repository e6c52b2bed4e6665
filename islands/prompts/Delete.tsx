import { useState } from "react";
import { ConfirmDelete } from "../../components/ConfirmDelete.tsx";
import { Check } from "../../components/settings/Check.tsx";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";
import { deleteItems } from "../../client/file_ops.ts";
import type { TransferItem } from "../../client/file_ops.ts";

/** The delete confirmation (singular or plural with the count); with a trash, a "delete permanently" choice. */
export function DeletePrompt(props: PromptProps<{ items: TransferItem[]; onDone?: () => void }>) {
  const { t, config } = usePage();
  const [busy, setBusy] = useState(false);
  const [permanent, setPermanent] = useState(false);
  const hasTrash = (config.TrashDays ?? 0) > 0;
  const items = props.props.items;
  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    await deleteItems(items, { permanent: hasTrash && permanent });
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
    >
      {hasTrash && (
        <>
          <p class="muted">{t(permanent ? "prompts.delete.permanentHint" : "prompts.delete.trashHint")}</p>
          <Check
            name="permanent"
            label={t("prompts.delete.permanent")}
            checked={permanent}
            onChange={setPermanent}
          />
        </>
      )}
    </ConfirmDelete>
  );
}
