import { useState } from "react";
import { ConfirmDelete } from "../../components/ConfirmDelete.tsx";
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
    <ConfirmDelete
      title={t("prompts.delete.title")}
      testId="delete-user"
      message={t("settings.users.deleteConfirm")}
      cancelLabel={t("buttons.cancel")}
      deleteLabel={t("buttons.delete")}
      busy={busy}
      onConfirm={confirm}
      onCancel={props.close}
    />
  );
}
