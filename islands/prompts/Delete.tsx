import { useState } from "react";
import { enterConfirms, PromptCard } from "../../components/PromptCard.tsx";
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
    <PromptCard
      title={t("prompts.delete.title")}
      testId="delete"
      onKeyDown={enterConfirms(confirm)}
      actions={
        <>
          <button type="button" class="button flat" onClick={props.close}>{t("buttons.cancel")}</button>
          <button type="button" class="button danger" autoFocus disabled={busy} onClick={confirm}>
            {t("buttons.delete")}
          </button>
        </>
      }
    >
      <p>{message}</p>
    </PromptCard>
  );
}
