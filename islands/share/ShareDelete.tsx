import { useState } from "react";
import { ConfirmDelete } from "../../components/ConfirmDelete.tsx";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";
import { deleteShare } from "../../client/api/mod.ts";
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
    <ConfirmDelete
      title={t("share.deleteTitle")}
      testId="share-delete"
      message={t("share.deleteConfirm")}
      cancelLabel={t("buttons.cancel")}
      deleteLabel={t("buttons.delete")}
      busy={busy}
      onConfirm={confirm}
      onCancel={props.close}
    />
  );
}
