import { useState } from "react";
import { checkPassword } from "../client/password_policy.ts";

/** Props of PasswordFields. */
export interface PasswordFieldsProps {
  /** Prefix of the element ids (unique on the page). */
  id: string;
  /** Label of the password field (and of the confirmation, which is only shown with `confirm`). */
  label: string;
  confirmLabel?: string;
  /** Field names for the form. */
  name?: string;
  confirmName?: string;
  password: string;
  /** The confirmation's value, or null for a single field. */
  confirm: string | null;
  onPassword: (v: string) => void;
  onConfirm?: (v: string) => void;
  minLength: number;
  /** Show the labels above the fields (else they are for screen readers and the placeholders show them). */
  visibleLabels?: boolean;
  placeholder?: string;
  required?: boolean;
  t: (k: string, vars?: Record<string, string | number>) => string;
}

/**
 * A new password with its rule stated up front ("Minimum length: 12 characters"), and optionally its confirmation.
 * A too short or too long password is marked invalid with the reason in words (after the field is left), a differing
 * confirmation says so under it; only a pair the server will take turns green.
 */
export function PasswordFields(props: PasswordFieldsProps) {
  const { t, password, confirm } = props;
  const [leftPassword, setLeftPassword] = useState(false);
  const [leftConfirm, setLeftConfirm] = useState(false);
  const check = checkPassword(password, confirm, props.minLength);
  const min = Math.max(props.minLength, 1);
  const showShort = check.tooShort && (leftPassword || !!confirm);
  const problem = showShort || check.tooLong;
  // While the confirmation is still a correct beginning of the password, nothing is wrong yet.
  const showMismatch = check.mismatch && (leftConfirm || !password.startsWith(confirm!));
  const note = check.tooLong
    ? t("password.tooLong")
    : showShort
    ? t("password.tooShort", { min })
    : t("password.minLength", { min });
  const ok = check.ok && confirm !== null;
  const labelClass = props.visibleLabels ? undefined : "sr-only";
  const id = props.id;
  return (
    <>
      <div class="field">
        <label for={`${id}-password`} class={labelClass}>{props.label}</label>
        <input
          id={`${id}-password`}
          class={ok ? "input input-ok" : "input"}
          type="password"
          name={props.name ?? "password"}
          autocomplete="new-password"
          placeholder={props.placeholder ?? (props.visibleLabels ? undefined : props.label)}
          value={password}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-note`}
          onInput={(e) => props.onPassword((e.currentTarget as HTMLInputElement).value)}
          onBlur={() => setLeftPassword(true)}
          required={props.required}
        />
        <p
          id={`${id}-note`}
          class={problem ? "field-note field-problem" : "field-note"}
          aria-live="polite"
          data-testid="password-note"
        >
          {note}
        </p>
      </div>
      {confirm !== null && (
        <div class="field">
          <label for={`${id}-confirm`} class={labelClass}>{props.confirmLabel}</label>
          <input
            id={`${id}-confirm`}
            class={ok ? "input input-ok" : showMismatch ? "input input-bad" : "input"}
            type="password"
            name={props.confirmName ?? "passwordConfirm"}
            autocomplete="new-password"
            placeholder={props.visibleLabels ? undefined : props.confirmLabel}
            value={confirm}
            aria-invalid={showMismatch ? true : undefined}
            aria-describedby={showMismatch ? `${id}-mismatch` : undefined}
            onInput={(e) => props.onConfirm?.((e.currentTarget as HTMLInputElement).value)}
            onBlur={() => setLeftConfirm(true)}
            required={props.required}
            data-state={ok ? "ok" : showMismatch ? "bad" : undefined}
          />
          <p
            id={`${id}-mismatch`}
            class="field-note field-problem"
            aria-live="polite"
            data-testid="password-mismatch"
          >
            {showMismatch ? t("login.passwordsDontMatch") : ""}
          </p>
        </div>
      )}
    </>
  );
}
