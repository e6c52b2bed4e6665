import { useState } from "react";

/** The password form of a protected share; `failed` shows the wrong-credentials message. */
export function PasswordCard(
  props: { failed: boolean; busy: boolean; onSubmit: (password: string) => void; t: (k: string) => string },
) {
  const { t } = props;
  const [password, setPassword] = useState("");
  return (
    <form
      class="card share-password"
      data-testid="share-password-card"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit(password.trim());
      }}
    >
      <h1 class="card-title">{t("share.passwordTitle")}</h1>
      <div class="card-content">
        {props.failed && (
          <p class="share-error" role="alert" data-testid="share-wrong">{t("login.wrongCredentials")}</p>
        )}
        <label class="field">
          <span>{t("share.passwordPrompt")}</span>
          <input
            class="input"
            type="password"
            autoFocus
            autoComplete="off"
            value={password}
            onInput={(e) => setPassword((e.target as HTMLInputElement).value)}
            data-testid="share-password-input"
          />
        </label>
      </div>
      <div class="card-actions">
        <button type="submit" class="button" disabled={props.busy} data-testid="share-password-submit">
          {t("share.submit")}
        </button>
      </div>
    </form>
  );
}
