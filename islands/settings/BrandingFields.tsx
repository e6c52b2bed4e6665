import { Check } from "../../components/settings/Check.tsx";
import type { Settings } from "../../lib/types.ts";

type Branding = Settings["branding"];

/** Props of BrandingFields. */
export interface BrandingFieldsProps {
  value: Branding;
  onChange: (next: Branding) => void;
  t: (key: string) => string;
}

/** Global settings: links to the project, the disk-usage bar, the theme, the instance's name and files title. */
export function BrandingFields(props: BrandingFieldsProps) {
  const { t, value: b } = props;
  const set = <K extends keyof Branding>(k: K) => (v: Branding[K]) => props.onChange({ ...b, [k]: v });
  return (
    <>
      <Check
        label={t("settings.branding.disableExternal")}
        checked={b.disableExternal}
        onChange={set("disableExternal")}
      />
      <Check
        label={t("settings.branding.disableUsedPercentage")}
        checked={b.disableUsedPercentage}
        onChange={set("disableUsedPercentage")}
      />
      <label class="field">
        <span>{t("settings.theme.label")}</span>
        <select
          class="input"
          name="branding.theme"
          value={b.theme}
          onChange={(e) => set("theme")((e.currentTarget as HTMLSelectElement).value)}
        >
          <option value="">{t("settings.theme.system")}</option>
          <option value="light">{t("settings.theme.light")}</option>
          <option value="dark">{t("settings.theme.dark")}</option>
        </select>
      </label>
      <label class="field">
        <span>{t("settings.branding.name")}</span>
        <input
          class="input"
          name="branding.name"
          value={b.name}
          onInput={(e) => set("name")((e.currentTarget as HTMLInputElement).value)}
        />
      </label>
      <label class="field">
        <span>{t("settings.branding.files")}</span>
        <input
          class="input"
          name="branding.files"
          value={b.files}
          onInput={(e) => set("files")((e.currentTarget as HTMLInputElement).value)}
        />
      </label>
    </>
  );
}
