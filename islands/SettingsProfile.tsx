import { useState } from "react";
import { island } from "../framework/island.tsx";
import { Check } from "../components/settings/Check.tsx";
import { LocaleSelect } from "../components/settings/LocaleSelect.tsx";
import { WebdavCard } from "../components/settings/WebdavCard.tsx";
import { updateUser } from "../client/api/mod.ts";
import { usePage } from "../client/hooks.ts";
import { renewToken } from "../client/session.ts";
import { user as sessionUser } from "../client/state.ts";
import { showError, showSuccess } from "../client/toasts.ts";
import { PasswordChange } from "./settings/PasswordChange.tsx";
import { TwoFactorCard } from "./settings/TwoFactorCard.tsx";
import { AppPasswordsCard } from "./settings/AppPasswordsCard.tsx";
import type { AppPasswordInfo, TwoFactorStatus } from "../lib/types.ts";

const PROFILE_FIELDS = ["locale", "hideDotfiles", "singleClick", "dateFormat", "theme"] as const;

/** Switches the page's theme at once (as the server renders it: `data-theme` and the color-scheme meta). */
function applyTheme(theme: string): void {
  const root = document.documentElement;
  if (theme) root.dataset.theme = theme;
  else delete root.dataset.theme;
  document.querySelector('meta[name="color-scheme"]')?.setAttribute("content", theme || "light dark");
}

/** Props of SettingsProfile: the account cards' data, when the page brought it. */
export interface SettingsProfileProps {
  twoFactor?: TwoFactorStatus | null;
  appPasswords?: AppPasswordInfo[] | null;
}

function SettingsProfileImpl(props: SettingsProfileProps) {
  const { config, user, locale, t } = usePage();
  const [form, setForm] = useState(() => ({
    locale: user?.locale ?? "",
    hideDotfiles: !!user?.hideDotfiles,
    singleClick: !!user?.singleClick,
    dateFormat: !!user?.dateFormat,
    theme: user?.theme ?? "",
  }));
  const [busy, setBusy] = useState(false);
  if (!user) return null;
  // Rendered on the server too, where there is no location: the origin fills in on hydration.
  const davUrl = `${typeof location === "undefined" ? "" : location.origin}${config.BaseURL}/dav/`;
  const set = <K extends keyof typeof form>(k: K) => (v: typeof form[K]) => setForm({ ...form, [k]: v });
  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      await updateUser(user.id, [...PROFILE_FIELDS], form);
      const localeChanged = form.locale !== user.locale;
      sessionUser.value = { ...user, ...form };
      if (localeChanged) {
        // Texts and direction come with the page: load it again in the new language.
        await renewToken();
        location.reload();
        return;
      }
      applyTheme(form.theme || config.Theme);
      showSuccess(t("settings.settingsUpdated"));
    } catch (err) {
      showError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="settings-columns">
      <form class="card settings-card" onSubmit={submit} data-testid="profile-form">
        <h2 class="card-title">{t("settings.profile.title")}</h2>
        <div class="card-content settings-fields">
          <Check
            name="hideDotfiles"
            label={t("settings.hideDotfiles")}
            checked={form.hideDotfiles}
            onChange={set("hideDotfiles")}
          />
          <Check
            name="singleClick"
            label={t("settings.singleClick")}
            checked={form.singleClick}
            onChange={set("singleClick")}
          />
          <Check
            name="dateFormat"
            label={t("settings.dateFormat")}
            checked={form.dateFormat}
            onChange={set("dateFormat")}
          />
          <label class="field">
            <span>{t("settings.theme.label")}</span>
            <select
              class="input"
              name="theme"
              value={form.theme}
              onChange={(e) => set("theme")((e.currentTarget as HTMLSelectElement).value)}
            >
              <option value="">{t("settings.theme.default")}</option>
              <option value="light">{t("settings.theme.light")}</option>
              <option value="dark">{t("settings.theme.dark")}</option>
            </select>
          </label>
          <label class="field">
            <span>{t("settings.language")}</span>
            <LocaleSelect
              value={form.locale}
              onChange={set("locale")}
              emptyLabel={t("settings.browserLanguage")}
            />
          </label>
        </div>
        <div class="card-actions">
          <button type="submit" class="button" disabled={busy}>{t("settings.update")}</button>
        </div>
      </form>
      {!user.lockPassword && (
        <PasswordChange userId={user.id} askCurrent={config.AuthMethod === "json"} t={t} />
      )}
      {config.WebDAV && user.webdav !== false && (
        <WebdavCard
          url={davUrl}
          username={user.username}
          t={t}
          onCopy={() =>
            navigator.clipboard.writeText(davUrl).then(
              () => showSuccess(t("settings.webdav.copied")),
              showError,
            )}
        />
      )}
      {(config.AuthMethod === "json" || config.AuthMethod === "hook") && (
        <>
          <TwoFactorCard
            askCurrent={config.AuthMethod === "json"}
            status={props.twoFactor}
            locked={!!user.lockPassword}
            t={t}
          />
          <AppPasswordsCard
            askCurrent={config.AuthMethod === "json"}
            list={props.appPasswords}
            canCreate={!user.lockPassword}
            locale={locale}
            t={t}
          />
        </>
      )}
    </div>
  );
}

/**
 * Profile settings: preferences, the password change (unless the password is locked), two-factor login and app
 * passwords (with json or hook authentication).
 */
export const SettingsProfile = island("SettingsProfile", SettingsProfileImpl);
