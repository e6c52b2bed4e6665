/** Props of CurrentPasswordField. */
export interface CurrentPasswordFieldProps {
  value: string;
  onInput: (value: string) => void;
  /** Enter in the field (a prompt without a form submits this way). */
  onEnter?: () => void;
  required?: boolean;
  t: (key: string) => string;
}

/** The requester's current password, asked before account changes (json auth). */
export function CurrentPasswordField(props: CurrentPasswordFieldProps) {
  return (
    <label class="field">
      <span>{props.t("settings.currentPassword")}</span>
      <input
        class="input"
        type="password"
        name="currentPassword"
        autocomplete="current-password"
        required={props.required}
        value={props.value}
        onInput={(e) => props.onInput((e.currentTarget as HTMLInputElement).value)}
        onKeyDown={props.onEnter &&
          ((e) => {
            if (e.key !== "Enter") return;
            e.preventDefault();
            props.onEnter!();
          })}
      />
    </label>
  );
}
