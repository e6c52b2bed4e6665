import { useEffect, useState } from "react";
import { QrCode } from "../../components/share/QrCode.tsx";
import { Check } from "../../components/settings/Check.tsx";
import { renewToken } from "../../client/session.ts";
import { showError, showSuccess } from "../../client/toasts.ts";
import { confirmTwoFactor, disableTwoFactor, getTwoFactor, startTwoFactor } from "../../client/api/mod.ts";
import type { TwoFactorEnrollment, TwoFactorStatus } from "../../lib/types.ts";

/** Props of TwoFactorCard. */
export interface TwoFactorCardProps {
  /** Ask for the current password (json auth). */
  askCurrent: boolean;
  /** The status, when the page brought it (else the card asks the API). */
  status?: TwoFactorStatus | null;
  /** The account's password is locked: it cannot enrol an authenticator of its own. */
  locked: boolean;
  t: (key: string, vars?: Record<string, string | number>) => string;
}

function Field(
  props: { name: string; label: string; value: string; set: (v: string) => void; type?: "password" },
) {
  const common = {
    class: "input",
    name: props.name,
    value: props.value,
    onInput: (e: Event) => props.set((e.currentTarget as HTMLInputElement).value),
  };
  return (
    <label class="field">
      <span>{props.label}</span>
      {props.type === "password"
        ? <input type="password" autocomplete="current-password" {...common} />
        : <input type="text" autocomplete="one-time-code" {...common} />}
    </label>
  );
}

/**
 * Settings › Profile: two-factor login. Off: the current password starts an enrolment (QR code and secret, then
 * a confirmation code, which may also sign the other sessions out); the ten recovery codes are shown once. On:
 * the password plus a code turn it off.
 */
export function TwoFactorCard(props: TwoFactorCardProps) {
  const { t } = props;
  const [status, setStatus] = useState<TwoFactorStatus | null>(props.status ?? null);
  const [enrollment, setEnrollment] = useState<TwoFactorEnrollment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [current, setCurrent] = useState("");
  const [code, setCode] = useState("");
  // Ticked: the sessions opened with the password alone are what the second factor is there to stop.
  const [endOthers, setEndOthers] = useState(true);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!props.status) void getTwoFactor().then(setStatus, showError);
  }, []);

  const run = (action: () => Promise<void>) => async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      await action();
    } catch (err) {
      showError(err);
    } finally {
      setBusy(false);
    }
  };
  const start = run(async () => {
    setEnrollment(await startTwoFactor(current));
    setCurrent("");
  });
  const confirm = run(async () => {
    setCodes(await confirmTwoFactor(code.trim(), { endOtherSessions: endOthers }));
    setEnrollment(null);
    setCode("");
    // The token may carry "must enrol": a fresh one drops it.
    await renewToken();
  });
  const disable = run(async () => {
    await disableTwoFactor(current, code.trim());
    setCurrent("");
    setCode("");
    setStatus(await getTwoFactor());
    showSuccess(t("settings.twofa.disabled"));
  });
  const done = run(async () => {
    setCodes(null);
    setStatus(await getTwoFactor());
  });
  const password = props.askCurrent &&
    (
      <Field
        name="currentPassword"
        type="password"
        label={t("settings.currentPassword")}
        value={current}
        set={setCurrent}
      />
    );

  let body;
  if (codes) {
    body = (
      <form onSubmit={done}>
        <div class="card-content settings-fields">
          <p class="settings-hint">{t("settings.twofa.recoveryHelp")}</p>
          <ul class="twofa-codes" data-testid="recovery-codes">{codes.map((c) => <li key={c}>{c}</li>)}</ul>
        </div>
        <div class="card-actions">
          <button type="submit" class="button" disabled={busy}>{t("settings.twofa.done")}</button>
        </div>
      </form>
    );
  } else if (enrollment) {
    body = (
      <form onSubmit={confirm}>
        <div class="card-content settings-fields">
          <p class="settings-hint">{t("settings.twofa.scan")}</p>
          <div class="twofa-qr">
            <QrCode text={enrollment.uri} label={t("settings.twofa.qr")} />
          </div>
          <p class="settings-hint">{t("settings.twofa.secret")}</p>
          <code class="twofa-secret" data-testid="twofa-secret">{enrollment.secret}</code>
          <Field name="code" label={t("settings.twofa.code")} value={code} set={setCode} />
          <Check
            name="endOtherSessions"
            label={t("settings.twofa.endSessions")}
            checked={endOthers}
            onChange={setEndOthers}
          />
        </div>
        <div class="card-actions">
          <button type="submit" class="button" disabled={busy || !code.trim()}>
            {t("settings.twofa.confirm")}
          </button>
        </div>
      </form>
    );
  } else if (status?.enabled) {
    body = (
      <form onSubmit={disable}>
        <div class="card-content settings-fields">
          <p data-testid="twofa-state">{t("settings.twofa.on", { n: status.recoveryCodesLeft })}</p>
          {password}
          <Field name="code" label={t("settings.twofa.codeOrRecovery")} value={code} set={setCode} />
        </div>
        <div class="card-actions">
          <button type="submit" class="button danger" disabled={busy || !code.trim()}>
            {t("settings.twofa.disable")}
          </button>
        </div>
      </form>
    );
  } else {
    body = (
      <form onSubmit={start}>
        <div class="card-content settings-fields">
          {status?.required && <p class="settings-required" role="alert">{t("settings.twofa.required")}</p>}
          <p class="settings-hint" data-testid="twofa-state">{t("settings.twofa.off")}</p>
          {props.locked
            ? <p class="settings-hint" data-testid="twofa-locked">{t("settings.passwordLockedHint")}</p>
            : password}
        </div>
        {!props.locked && (
          <div class="card-actions">
            <button type="submit" class="button" disabled={busy || !status}>
              {t("settings.twofa.enable")}
            </button>
          </div>
        )}
      </form>
    );
  }
  return (
    <section class="card settings-card" id="twofa" data-testid="twofa-card">
      <h2 class="card-title">{t("settings.twofa.title")}</h2>
      {body}
    </section>
  );
}
