import { useState } from "react";
import { enterConfirms, PromptCard } from "../../components/PromptCard.tsx";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";
import { deleteShare } from "../../client/share.ts";
import { showError, showSuccess } from "../../client/toasts.ts";

/** Confirmation before a share link is deleted; `onDone` runs after a successful delete. */
export function ShareDeletePrompt(props: PromptProps<{ hash: string; onDone?: () => void }>) {
  const { t } = usePage();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await deleteShare(props.props.hash);
      showSuccess(t("share.deleted"));
      props.close();
      props.props.onDone?.();
    } catch (err) {
      setBusy(false);
      showError(err);
    }
  };
  return (
    <PromptCard
      title={t("share.deleteTitle")}
      testId="share-delete"
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
      <p>{t("share.deleteConfirm")}</p>
    </PromptCard>
  );
}
