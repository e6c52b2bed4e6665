import { Check } from "../../components/settings/Check.tsx";
import { ListInput } from "../../components/settings/ListInput.tsx";
import { splitWords } from "../../client/settings.ts";
import type { SiteSettings } from "../../lib/types.ts";

const FORMATS = ["detect", "yaml", "toml", "json"] as const;

/**
 * The fields of the "Site" card: publishing on/off, the site folder, Hugo's content and archetypes folders, the
 * front-matter format and, with command execution on, the build command.
 */
export function SiteCard(
  props: {
    value: SiteSettings;
    onChange: (s: SiteSettings) => void;
    exec: boolean;
    t: (k: string) => string;
  },
) {
  const { value: s, t } = props;
  const set = <K extends keyof SiteSettings>(k: K) => (v: SiteSettings[K]) =>
    props.onChange({ ...s, [k]: v });
  const text = (k: "path" | "contentDir" | "archetypesDir", placeholder: string) => (
    <label class="field">
      <span>{t(`settings.site.${k}`)}</span>
      <input
        class="input"
        name={`site.${k}`}
        value={s[k]}
        placeholder={placeholder}
        spellcheck={false}
        autocomplete="off"
        onInput={(e) => set(k)((e.currentTarget as HTMLInputElement).value)}
      />
    </label>
  );
  return (
    <div class="settings-fields" data-testid="site">
      <p class="settings-hint">{t("settings.site.hint")}</p>
      <Check
        name="site.enabled"
        label={t("settings.site.enabled")}
        checked={s.enabled}
        onChange={set("enabled")}
      />
      {text("path", "/site")}
      <p class="settings-hint">{t("settings.site.pathHint")}</p>
      {text("contentDir", "content")}
      {text("archetypesDir", "archetypes")}
      <label class="field">
        <span>{t("settings.site.frontMatter")}</span>
        <select
          class="input"
          name="site.frontMatter"
          value={s.frontMatter}
          onChange={(e) =>
            set("frontMatter")((e.currentTarget as HTMLSelectElement).value as SiteSettings["frontMatter"])}
        >
          {FORMATS.map((f) => <option key={f} value={f}>{t(`settings.site.format.${f}`)}</option>)}
        </select>
      </label>
      {props.exec
        ? (
          <label class="field">
            <span>{t("settings.site.build")}</span>
            <ListInput name="site.build" value={s.build} split={splitWords} onChange={set("build")} />
          </label>
        )
        : <p class="settings-hint" data-testid="site-no-exec">{t("settings.site.noExec")}</p>}
    </div>
  );
}
