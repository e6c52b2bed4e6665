import { useState } from "react";
import { enterConfirms, PromptCard } from "../../components/PromptCard.tsx";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";

/** Asks 'Are you sure you want to delete this user?'; `onConfirm` does the deletion. */
export function DeleteUserPrompt(props: PromptProps<{ onConfirm: () => Promise<void> }>) {
  const { t } = usePage();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    props.close();
    await props.props.onConfirm();
  };
  return (
    <PromptCard
      title={t("prompts.delete.title")}
      testId="delete-user"
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
      <p>{t("settings.users.deleteConfirm")}</p>
    </PromptCard>
  );
}
