import { CurrentPasswordField } from "../../components/settings/CurrentPasswordField.tsx";
import { useState } from "react";
import { ConfirmDelete } from "../../components/ConfirmDelete.tsx";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";

/** Props of DeleteUserPrompt. */
export interface DeleteUserPromptProps {
  /** Does the deletion, with the requester's current password (empty unless json auth asks for it). */
  onConfirm: (currentPassword: string) => Promise<void>;
}

/**
 * Asks 'Are you sure you want to delete this user?' and, with json auth, for the requester's own password (the server
 * re-authenticates deletions); Enter in the password field confirms.
 */
export function DeleteUserPrompt(props: PromptProps<DeleteUserPromptProps>) {
  const { config, t } = usePage();
  const [busy, setBusy] = useState(false);
  const [current, setCurrent] = useState("");
  const askCurrent = config.AuthMethod === "json";
  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    props.close();
    await props.props.onConfirm(current);
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
    >
      {askCurrent && <CurrentPasswordField value={current} onInput={setCurrent} onEnter={confirm} t={t} />}
    </ConfirmDelete>
  );
}
