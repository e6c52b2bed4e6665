import { Check } from "../../components/settings/Check.tsx";
import type { Settings, TwoFactorRequirement } from "../../lib/types.ts";

/** Props of SecurityFields. */
export interface SecurityFieldsProps {
  settings: Settings;
  onChange: (patch: Partial<Settings>) => void;
  t: (key: string) => string;
}

/** Global settings: who must use two-factor login, and whether app passwords may log in to the web UI/API. */
export function SecurityFields(props: SecurityFieldsProps) {
  const { t, settings: s } = props;
  return (
    <fieldset class="settings-group" data-testid="security-fields">
      <legend>{t("settings.security.title")}</legend>
      <label class="field">
        <span>{t("settings.security.twoFactorRequired")}</span>
        <select
          class="input"
          name="twoFactorRequired"
          value={s.twoFactorRequired ?? ""}
          onChange={(e) =>
            props.onChange({
              twoFactorRequired: (e.currentTarget as HTMLSelectElement).value as TwoFactorRequirement,
            })}
        >
          <option value="">{t("settings.security.requireNobody")}</option>
          <option value="admins">{t("settings.security.requireAdmins")}</option>
          <option value="all">{t("settings.security.requireAll")}</option>
        </select>
      </label>
      <Check
        name="appPasswordsForLogin"
        label={t("settings.security.appPasswordsForLogin")}
        checked={!!s.appPasswordsForLogin}
        onChange={(v) => props.onChange({ appPasswordsForLogin: v })}
      />
    </fieldset>
  );
}
