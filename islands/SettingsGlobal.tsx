import { useEffect, useRef, useState } from "react";
import { island } from "../framework/island.tsx";
import { Check } from "../components/settings/Check.tsx";
import { ExecNotice } from "../components/settings/ExecNotice.tsx";
import { ListInput } from "../components/settings/ListInput.tsx";
import { ErrorView } from "../components/ErrorView.tsx";
import { ApiError, getSettings, putSettings } from "../client/api/mod.ts";
import { usePage } from "../client/hooks.ts";
import { splitLines, splitWords } from "../client/settings.ts";
import { showError, showErrorText, showSuccess } from "../client/toasts.ts";
import { findUnsafeHook, type UnsafeHook } from "../lib/runner/hook_safety.ts";
import type { FilebrowserImport, Settings } from "../lib/types.ts";
import { HOOK_EVENTS } from "../lib/types.ts";
import { ChunkSizeField } from "./settings/ChunkSizeField.tsx";
import type { ChunkSizeHandle } from "./settings/ChunkSizeField.tsx";
import { DefaultsFields } from "./settings/DefaultsFields.tsx";
import { RulesEditor } from "./settings/RulesEditor.tsx";
import { SiteCard } from "./settings/SiteCard.tsx";
import { ImportedNote } from "./settings/ImportedNote.tsx";
import { SecurityFields } from "./settings/SecurityFields.tsx";
import { BrandingFields } from "./settings/BrandingFields.tsx";
import { SettingsCard } from "./settings/SettingsCard.tsx";

const HOOK_NAMES = HOOK_EVENTS.flatMap((e) => [`before_${e}`, `after_${e}`]);

/** Why a hook line is refused, translated, with its safe form when there is one. */
function unsafeHookText(
  t: (key: string, vars?: Record<string, string>) => string,
  found: { hook: string; line: string; unsafe: UnsafeHook },
): string {
  const { variable, program, safe } = found.unsafe;
  const vars = { hook: found.hook, line: found.line, variable, program, safe: safe ?? "" };
  if (safe === null) return t("settings.hookUnsafeNoFix", vars);
  return t(program === "shell" ? "settings.hookUnquoted" : "settings.hookUnsafe", vars);
}

function GlobalForm(props: { initial: Settings; imported: FilebrowserImport | null }) {
  const { config, locale, t } = usePage();
  const [s, setS] = useState<Settings>(props.initial);
  const chunk = useRef<ChunkSizeHandle | null>(null);
  const busy = useRef(false);
  const exec = config.EnableExec;
  const set = <K extends keyof Settings>(k: K) => (v: Settings[K]) => setS((cur) => ({ ...cur, [k]: v }));
  const save = async () => {
    if (busy.current) return;
    // The server refuses it too (400); here the admin reads why in their language, with the safe form.
    const unsafe = findUnsafeHook(s.commands, s.shell);
    if (unsafe !== null) return showErrorText(unsafeHookText(t, unsafe));
    busy.current = true;
    const chunkSize = chunk.current?.flush() ?? s.tus.chunkSize;
    try {
      await putSettings({ ...s, tus: { ...s.tus, chunkSize } });
      showSuccess(t("settings.settingsUpdated"));
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) {
        showError(err, t("settings.saveFailed"));
      } else showError(err);
    } finally {
      busy.current = false;
    }
  };
  const common = { onSave: save, label: t("settings.update") };
  const text = (k: "userHomeBasePath") => (
    <input
      class="input"
      name={k}
      value={s[k]}
      onInput={(e) => set(k)((e.currentTarget as HTMLInputElement).value)}
    />
  );
  return (
    <div class="settings-columns three">
      <div class="settings-column">
        <SettingsCard title={t("settings.global.title")} id="global" {...common}>
          {props.imported && <ImportedNote record={props.imported} locale={locale} t={t} />}
          <Check
            name="enableGuest"
            label={t("settings.enableGuest")}
            checked={!!s.enableGuest}
            onChange={set("enableGuest")}
          />
          <Check
            name="signup"
            label={t("settings.allowSignup")}
            checked={s.signup}
            onChange={set("signup")}
          />
          <Check
            name="createUserDir"
            label={t("settings.createUserDir")}
            checked={s.createUserDir}
            onChange={set("createUserDir")}
          />
          <label class="field">
            <span>{t("settings.userHomeBasePath")}</span>
            {text("userHomeBasePath")}
          </label>
          <SecurityFields settings={s} onChange={(patch) => setS((cur) => ({ ...cur, ...patch }))} t={t} />
          <fieldset class="settings-group">
            <legend>{t("settings.rules.title")}</legend>
            <p class="settings-hint">{t("settings.rules.hint")}</p>
            <RulesEditor rules={s.rules} onChange={set("rules")} t={t} />
          </fieldset>
          {exec && (
            <label class="field">
              <span>{t("settings.shell")}</span>
              <ListInput name="shell" value={s.shell} split={splitWords} onChange={set("shell")} />
            </label>
          )}
          <ExecNotice status={s.exec} shell={s.shell} t={t} />
        </SettingsCard>
        <SettingsCard title={t("settings.branding.title")} id="branding" {...common}>
          <BrandingFields value={s.branding} onChange={set("branding")} t={t} />
          <label class="field">
            <span>{t("settings.customCss")}</span>
            <textarea
              class="input mono"
              rows={5}
              name="customCss"
              value={s.customCss ?? ""}
              onInput={(e) => set("customCss")((e.currentTarget as HTMLTextAreaElement).value)}
            />
          </label>
        </SettingsCard>
        <SettingsCard title={t("settings.tus.title")} id="tus" {...common}>
          <ChunkSizeField
            label={t("settings.tus.chunkSize")}
            bytes={s.tus.chunkSize}
            handle={chunk}
            onChange={(chunkSize) => setS((cur) => ({ ...cur, tus: { ...cur.tus, chunkSize } }))}
          />
          <label class="field">
            <span>{t("settings.tus.retryCount")}</span>
            <input
              class="input"
              type="number"
              min={0}
              name="retryCount"
              value={s.tus.retryCount}
              onInput={(e) => {
                const n = Math.max(0, Math.floor(Number((e.currentTarget as HTMLInputElement).value) || 0));
                setS((cur) => ({ ...cur, tus: { ...cur.tus, retryCount: n } }));
              }}
            />
          </label>
        </SettingsCard>
      </div>
      <div class="settings-column">
        <SettingsCard title={t("settings.defaults.title")} id="defaults" {...common}>
          <p class="settings-hint">{t("settings.defaults.hint")}</p>
          <DefaultsFields value={s.defaults} onChange={set("defaults")} exec={exec} t={t} />
        </SettingsCard>
        <SettingsCard title={t("settings.site.title")} id="site" {...common}>
          {/* GET /api/settings always carries `site` (lib/settings.ts toWireSettings). */}
          <SiteCard value={s.site!} onChange={set("site")} exec={exec} t={t} />
        </SettingsCard>
      </div>
      {exec && (
        <div class="settings-column">
          <SettingsCard title={t("settings.commandRunner.title")} id="commands" {...common}>
            <p class="settings-hint">{t("settings.commandRunner.hint")}</p>
            <p class="settings-hint">{t("settings.commandRunner.safeHint")}</p>
            {HOOK_NAMES.map((name) => (
              <details key={name} class="settings-hook" open={(s.commands[name]?.length ?? 0) > 0}>
                <summary>{name}</summary>
                <ListInput
                  lines
                  name={`commands.${name}`}
                  label={name}
                  value={s.commands[name] ?? []}
                  split={splitLines}
                  onChange={(list) =>
                    setS((cur) => ({ ...cur, commands: { ...cur.commands, [name]: list } }))}
                />
              </details>
            ))}
          </SettingsCard>
        </div>
      )}
    </div>
  );
}

function SettingsGlobalImpl(props: { imported: FilebrowserImport | null; settings?: Settings }) {
  const { t } = usePage();
  const [settings, setSettings] = useState<Settings | null>(props.settings ?? null);
  const [error, setError] = useState<number | null>(null);
  useEffect(() => {
    // The page brings the settings; the API only when it came without.
    if (props.settings) return;
    getSettings().then(setSettings).catch((err) => setError(err instanceof ApiError ? err.status : 500));
  }, []);
  if (error !== null) return <ErrorView status={error} t={t} />;
  if (!settings) return <p class="settings-loading" data-testid="settings-loading">{t("files.loading")}</p>;
  return <GlobalForm initial={settings} imported={props.imported} />;
}

/** Global settings (admin): general, branding, upload, new-user defaults and, with exec, the command hooks. */
export const SettingsGlobal = island("SettingsGlobal", SettingsGlobalImpl);
