import { Check } from "../../components/settings/Check.tsx";
import { ListInput } from "../../components/settings/ListInput.tsx";
import { LocaleSelect } from "../../components/settings/LocaleSelect.tsx";
import { splitWords } from "../../client/settings.ts";
import type { UserDefaults } from "../../lib/types.ts";
import { PermissionsFields } from "./PermissionsFields.tsx";

/** The defaults for new users: scope, locale, view mode, preferences, permissions, commands. */
export function DefaultsFields(
  props: {
    value: UserDefaults;
    onChange: (d: UserDefaults) => void;
    exec: boolean;
    t: (k: string) => string;
  },
) {
  const { value: d, t } = props;
  const set = <K extends keyof UserDefaults>(k: K) => (v: UserDefaults[K]) =>
    props.onChange({ ...d, [k]: v });
  return (
    <div class="settings-fields" data-testid="defaults">
      <label class="field">
        <span>{t("settings.scope")}</span>
        <input
          class="input"
          name="defaults.scope"
          value={d.scope}
          onInput={(e) => set("scope")((e.currentTarget as HTMLInputElement).value)}
        />
      </label>
      <label class="field">
        <span>{t("settings.language")}</span>
        <LocaleSelect value={d.locale} onChange={set("locale")} />
      </label>
      <label class="field">
        <span>{t("settings.viewMode")}</span>
        <select
          class="input"
          name="defaults.viewMode"
          value={d.viewMode}
          onChange={(e) => set("viewMode")((e.currentTarget as HTMLSelectElement).value)}
        >
          <option value="list">{t("settings.views.list")}</option>
          <option value="mosaic">{t("settings.views.mosaic")}</option>
          <option value="mosaic gallery">{t("settings.views.gallery")}</option>
        </select>
      </label>
      <Check label={t("settings.singleClick")} checked={d.singleClick} onChange={set("singleClick")} />
      <Check label={t("settings.hideDotfiles")} checked={d.hideDotfiles} onChange={set("hideDotfiles")} />
      <Check label={t("settings.dateFormat")} checked={d.dateFormat} onChange={set("dateFormat")} />
      <PermissionsFields perm={d.perm} onChange={set("perm")} exec={props.exec} t={t} />
      {props.exec && (
        <label class="field">
          <span>{t("settings.commands")}</span>
          <ListInput
            name="defaults.commands"
            value={d.commands}
            split={splitWords}
            onChange={set("commands")}
          />
        </label>
      )}
    </div>
  );
}
