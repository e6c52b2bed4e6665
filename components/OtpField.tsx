/** Props of OtpField. */
export interface OtpFieldProps {
  /** "totp": a 6-digit authentication code; "recovery": one of the recovery codes. */
  mode: "totp" | "recovery";
  value: string;
  onInput: (value: string) => void;
  /** Switches between the two kinds of code. */
  onSwitch: () => void;
  t: (key: string) => string;
}

/** The second step of a two-factor login: the code field and the link to the other kind of code. */
export function OtpField(props: OtpFieldProps) {
  const { t, mode } = props;
  return (
    <>
      <label class="field">
        <span>{mode === "totp" ? t("login.otpCode") : t("login.recoveryCode")}</span>
        <input
          class="input"
          name="otp"
          autocomplete="one-time-code"
          inputMode={mode === "totp" ? "numeric" : "text"}
          autocapitalize="off"
          value={props.value}
          onInput={(e) => props.onInput((e.target as HTMLInputElement).value)}
          autoFocus
          required
          data-testid="login-otp"
        />
      </label>
      <button type="button" class="link" onClick={props.onSwitch}>
        {mode === "totp" ? t("login.useRecoveryCode") : t("login.useOtpCode")}
      </button>
    </>
  );
}
