import { useState } from "react";
import { changePassword } from "../../client/settings.ts";
import { showError, showSuccess } from "../../client/toasts.ts";

/** Props of PasswordChange. */
export interface PasswordChangeProps {
  userId: number;
  /** Ask for the current password (json auth: the server re-authenticates the change). */
  askCurrent: boolean;
  t: (k: string) => string;
}

/**
 * Settings › Profile, card 2: the current password (json auth), the new one and its confirmation; the two turn
 * green when equal and red when different, and nothing is sent unless they are equal and non-empty.
 */
export function PasswordChange(props: PasswordChangeProps) {
  const { t } = props;
  const [current, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [busy, setBusy] = useState(false);
  const state = password === "" && confirm === "" ? "" : password === confirm ? "ok" : "bad";
  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy || password === "" || password !== confirm) return;
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
  const cls = state ? `input ${state === "ok" ? "input-ok" : "input-bad"}` : "input";
  const field = (name: string, label: string, value: string, set: (v: string) => void, extra = {}) => (
    <input
      class={name === "currentPassword" ? "input" : cls}
      type="password"
      name={name}
      autocomplete={name === "currentPassword" ? "current-password" : "new-password"}
      aria-label={label}
      placeholder={label}
      value={value}
      onInput={(e) => set((e.currentTarget as HTMLInputElement).value)}
      {...extra}
    />
  );
  return (
    <form class="card settings-card" onSubmit={submit} data-testid="password-form">
      <h2 class="card-title">{t("settings.profile.changePassword")}</h2>
      <div class="card-content settings-fields">
        {props.askCurrent && field("currentPassword", t("settings.currentPassword"), current, setCurrent)}
        {field("password", t("settings.profile.newPassword"), password, setPassword)}
        {field("passwordConfirm", t("settings.profile.newPasswordConfirm"), confirm, setConfirm, {
          "data-state": state || undefined,
        })}
      </div>
      <div class="card-actions">
        <button type="submit" class="button" disabled={busy}>{t("settings.update")}</button>
      </div>
    </form>
  );
}
