import { CurrentPasswordField } from "../../components/settings/CurrentPasswordField.tsx";
import { useState } from "react";
import { PasswordFields } from "../../components/PasswordFields.tsx";
import { usePage } from "../../client/hooks.ts";
import { checkPassword } from "../../client/password_policy.ts";
import { changePassword } from "../../client/api/mod.ts";
import { showError, showSuccess } from "../../client/toasts.ts";

/** Props of PasswordChange. */
export interface PasswordChangeProps {
  userId: number;
  /** Ask for the current password (json auth: the server re-authenticates the change). */
  askCurrent: boolean;
  t: (k: string, vars?: Record<string, string | number>) => string;
}

/**
 * Settings › Profile, card 2: the current password (json auth), the new one with the minimum length stated, and its
 * confirmation. A differing confirmation or a password the server would refuse for its length is said in words and
 * keeps Update disabled; the pair turns green only when the server will take it.
 */
export function PasswordChange(props: PasswordChangeProps) {
  const { t } = props;
  const { config } = usePage();
  const [current, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [busy, setBusy] = useState(false);
  const min = config.MinimumPasswordLength;
  const ok = checkPassword(password, confirm, min).ok;
  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy || !ok) return;
    setBusy(true);
    try {
      await changePassword(props.userId, password, { currentPassword: current });
      setCurrent("");
      setPassword("");
      setConfirm("");
      showSuccess(t("settings.passwordUpdated"));
    } catch (err) {
      showError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card settings-card" onSubmit={submit} data-testid="password-form">
      <h2 class="card-title">{t("settings.profile.changePassword")}</h2>
      <div class="card-content settings-fields">
        {props.askCurrent && <CurrentPasswordField value={current} onInput={setCurrent} t={t} />}
        <PasswordFields
          id="profile"
          label={t("settings.profile.newPassword")}
          confirmLabel={t("settings.profile.newPasswordConfirm")}
          password={password}
          confirm={confirm}
          onPassword={setPassword}
          onConfirm={setConfirm}
          minLength={min}
          visibleLabels
          t={t}
        />
      </div>
      <div class="card-actions">
        <button type="submit" class="button" disabled={busy || !ok}>{t("settings.update")}</button>
      </div>
    </form>
  );
}
