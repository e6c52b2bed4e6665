import { useEffect, useRef, useState } from "react";
import { island } from "../framework/island.tsx";
import { Logo } from "../components/Logo.tsx";
import { ApiError, isTwoFactorChallenge, login, signup } from "../client/api/mod.ts";
import { usePage } from "../client/hooks.ts";
import { setToken } from "../client/session.ts";
import { errorMessage } from "../client/toasts.ts";
import { loginFailureMessage, shouldTryGuest } from "../client/login_error.ts";
import { type CaptchaWidget, renderCaptcha } from "../client/captcha.ts";
import { safeRedirect } from "../lib/redirect.ts";
import { OtpField } from "../components/OtpField.tsx";
import { PasswordFields } from "../components/PasswordFields.tsx";
import { checkPassword } from "../client/password_policy.ts";

/** Props of Login. */
export interface LoginProps {
  /** Where to go after logging in (a path under the base URL), already validated by the server. */
  redirect: string;
  /** Start in signup mode. */
  signup?: boolean;
  /** The shortest password self-signup takes (the --min-password-length flag). */
  minPasswordLength: number;
}

function LoginImpl(props: LoginProps) {
  const { config, locale, t } = usePage();
  const [mode, setMode] = useState<"login" | "signup">(props.signup && config.Signup ? "signup" : "login");
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [error, setError] = useState("");
  // After a 401 with X-2FA-Required: the second step asks for a TOTP code or a recovery code.
  const [otpMode, setOtpMode] = useState<"" | "totp" | "recovery">("");
  const [otp, setOtp] = useState("");
  const [busy, setBusy] = useState(false);
  const captchaSlot = useRef<HTMLDivElement>(null);
  const [captcha, setCaptcha] = useState<CaptchaWidget | null>(null);
  const name = config.Name || "File Browser";
  const signupOk = checkPassword(password, confirm, props.minPasswordLength).ok;

  const finish = (token: string) => {
    setToken(token);
    // Checked again here: the target must stay on this origin whatever the page was given.
    const target = safeRedirect(props.redirect, { baseUrl: config.BaseURL, origin: location.origin });
    location.assign(`${config.BaseURL}${target}`);
  };

  useEffect(() => {
    // No login form (no-auth or proxy auth): the server answers /api/login without credentials.
    const auto = config.NoAuth || !config.LoginPage;
    const guest = shouldTryGuest(config.EnableGuest, document.referrer, location.origin, config.BaseURL);
    if (!auto && !guest) return;
    setBusy(true);
    login(guest && !auto ? "guest" : "", "")
      .then(finish)
      .catch((err) => {
        setBusy(false);
        setError(guest && !auto ? t("login.guestLoginFail") : errorMessage(err));
      });
  }, []);

  useEffect(() => {
    if (!config.ReCaptcha || !captchaSlot.current) return;
    renderCaptcha(captchaSlot.current, { host: config.ReCaptchaHost!, siteKey: config.ReCaptchaKey!, locale })
      .then(setCaptcha, () => setError(t("login.captchaUnavailable")));
  }, []);

  const submit = async (e: Event) => {
    e.preventDefault();
    setError("");
    // SPEC: with verification on, an unsolved widget is "wrong credentials" and nothing is sent.
    const token = captcha?.response() ?? "";
    if (config.ReCaptcha && !token) {
      setError(t("login.wrongCredentials"));
      return;
    }
    if (mode === "signup" && !signupOk) return;
    setBusy(true);
    try {
      if (mode === "signup") await signup(username, password);
      finish(await login(username, password, token, otpMode ? otp : ""));
    } catch (err) {
      setBusy(false);
      captcha?.reset();
      const status = err instanceof ApiError ? err.status : 500;
      if (isTwoFactorChallenge(err)) setOtpMode("totp");
      else if (otpMode && status === 403) setError(t("login.wrongCode"));
      else setError(loginFailureMessage(err, mode, t));
    }
  };

  return (
    <form class="login card" onSubmit={submit} data-testid="login-form">
      <Logo staticUrl={config.StaticURL} size={64} />
      <h1>{name}</h1>
      {error && <p class="login-error" role="alert" data-testid="login-error">{error}</p>}
      {otpMode
        ? (
          <OtpField
            mode={otpMode}
            value={otp}
            onInput={setOtp}
            onSwitch={() => {
              setOtp("");
              setOtpMode(otpMode === "totp" ? "recovery" : "totp");
            }}
            t={t}
          />
        )
        : (
          <>
            <label class="field">
              <span class="sr-only">{t("login.username")}</span>
              <input
                class="input"
                name="username"
                autocomplete="username"
                autocapitalize="off"
                placeholder={t("login.username")}
                value={username}
                onInput={(e) => setUsername((e.target as HTMLInputElement).value)}
                autoFocus
                required
              />
            </label>
            {mode === "signup"
              ? (
                <PasswordFields
                  id="signup"
                  label={t("login.password")}
                  confirmLabel={t("login.passwordConfirm")}
                  password={password}
                  confirm={confirm}
                  onPassword={setPassword}
                  onConfirm={setConfirm}
                  minLength={props.minPasswordLength}
                  required
                  t={t}
                />
              )
              : (
                <label class="field">
                  <span class="sr-only">{t("login.password")}</span>
                  <input
                    class="input"
                    type="password"
                    name="password"
                    autocomplete="current-password"
                    placeholder={t("login.password")}
                    value={password}
                    onInput={(e) => setPassword((e.target as HTMLInputElement).value)}
                    required
                  />
                </label>
              )}
          </>
        )}
      {config.ReCaptcha && (
        <div
          class="captcha-slot"
          ref={captchaSlot}
          role="group"
          aria-label={t("login.captcha")}
          aria-busy={!captcha}
          data-testid="captcha"
        />
      )}
      <button
        type="submit"
        class="button wide"
        disabled={busy || (config.ReCaptcha && !captcha) || (mode === "signup" && !otpMode && !signupOk)}
      >
        {mode === "signup" ? t("login.signup") : t("login.submit")}
      </button>
      {config.Signup && (
        <button
          type="button"
          class="link"
          onClick={() => {
            setError("");
            setMode(mode === "signup" ? "login" : "signup");
          }}
        >
          {mode === "signup" ? t("login.loginInstead") : t("login.createAnAccount")}
        </button>
      )}
    </form>
  );
}

/** The login/signup form (instance name and logo, signup toggle, password confirmation, guest auto-login). */
export const Login = island("Login", LoginImpl);
