import { useEffect, useState } from "react";
import { showError } from "../../client/toasts.ts";
import {
  createAppPassword,
  deleteAllAppPasswords,
  deleteAppPassword,
  listAppPasswords,
} from "../../client/api/mod.ts";
import type { AppPasswordInfo, NewAppPassword } from "../../lib/types.ts";
import { DataTable } from "../../components/settings/DataTable.tsx";

/** Props of AppPasswordsCard. */
export interface AppPasswordsCardProps {
  /** Ask for the current password (json auth). */
  askCurrent: boolean;
  /** The app passwords, when the page brought them (else the card asks the API). */
  list?: AppPasswordInfo[] | null;
  /** Another user's app passwords (an admin in the user editor): listed and revoked, never created. */
  userId?: number;
  /** The requester may create app passwords (not when their password is locked). */
  canCreate: boolean;
  locale: string;
  t: (key: string) => string;
}

/**
 * App passwords for WebDAV and scripts. Settings › Profile: create (shown once), list with dates, revoke one or
 * all. The user editor (`userId`): an admin lists and revokes a user's.
 */
export function AppPasswordsCard(props: AppPasswordsCardProps) {
  const { t } = props;
  const of = { userId: props.userId };
  const creating = props.userId === undefined && props.canCreate;
  const [list, setList] = useState<AppPasswordInfo[] | null>(props.list ?? null);
  const [made, setMade] = useState<NewAppPassword | null>(null);
  const [name, setName] = useState("");
  const [current, setCurrent] = useState("");
  const [busy, setBusy] = useState(false);
  const reload = () => listAppPasswords(of).then(setList, showError);
  useEffect(() => {
    if (!props.list) void reload();
  }, []);
  const date = (iso: string | null) =>
    iso
      ? new Date(iso).toLocaleString(props.locale || undefined, { dateStyle: "short", timeStyle: "short" })
      : t("settings.appPasswords.never");

  const create = async (e: Event) => {
    e.preventDefault();
    if (busy || !name.trim()) return;
    setBusy(true);
    try {
      setMade(await createAppPassword(name.trim(), current));
      setName("");
      setCurrent("");
      await reload();
    } catch (err) {
      showError(err);
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (id: string | null) => {
    try {
      if (id === null) await deleteAllAppPasswords(of);
      else await deleteAppPassword(id, of);
      if (id === null || made?.id === id) setMade(null);
      await reload();
    } catch (err) {
      showError(err);
    }
  };
  return (
    <form class="card settings-card" onSubmit={create} data-testid="app-passwords-card">
      <h2 class="card-title">{t("settings.appPasswords.title")}</h2>
      <div class="card-content settings-fields">
        <p class="settings-hint">
          {t(props.userId === undefined ? "settings.appPasswords.hint" : "settings.appPasswords.adminHint")}
        </p>
        {props.userId === undefined && !props.canCreate && (
          <p class="settings-hint" data-testid="app-passwords-locked">{t("settings.passwordLockedHint")}</p>
        )}
        {list && list.length === 0 && props.userId !== undefined && (
          <p class="settings-hint">{t("settings.appPasswords.none")}</p>
        )}
        {made && (
          <div class="app-password-new" role="status">
            <p>{t("settings.appPasswords.copyNow")}</p>
            <code data-testid="app-password-new">{made.password}</code>
          </div>
        )}
        {list && list.length > 0 && (
          <div class="app-passwords-scroll">
            <DataTable
              rows={list}
              loading={t("files.loading")}
              testId="app-passwords"
              columns={[
                t("settings.appPasswords.name"),
                t("settings.appPasswords.created"),
                t("settings.appPasswords.lastUsed"),
                { hidden: t("settings.appPasswords.revoke") },
              ]}
              row={(p) => (
                <tr key={p.id} data-name={p.name}>
                  <td>{p.name}</td>
                  <td>{date(p.created)}</td>
                  <td>{date(p.lastUsed)}</td>
                  <td>
                    <button type="button" class="button flat" onClick={() => revoke(p.id)}>
                      {t("settings.appPasswords.revoke")}
                    </button>
                  </td>
                </tr>
              )}
            />
          </div>
        )}
        {creating && (
          <label class="field">
            <span>{t("settings.appPasswords.name")}</span>
            <input
              class="input"
              name="appPasswordName"
              maxLength={100}
              value={name}
              onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
            />
          </label>
        )}
        {creating && props.askCurrent && (
          <label class="field">
            <span>{t("settings.currentPassword")}</span>
            <input
              class="input"
              type="password"
              name="appPasswordCurrent"
              autocomplete="current-password"
              value={current}
              onInput={(e) => setCurrent((e.currentTarget as HTMLInputElement).value)}
            />
          </label>
        )}
      </div>
      <div class="card-actions">
        {list && list.length > 0 && (
          <button
            type="button"
            class="button flat"
            onClick={() => revoke(null)}
            data-testid="revoke-all"
          >
            {t("settings.appPasswords.revokeAll")}
          </button>
        )}
        {creating && (
          <button type="submit" class="button" disabled={busy || !name.trim()}>
            {t("settings.appPasswords.create")}
          </button>
        )}
      </div>
    </form>
  );
}
