import { CurrentPasswordField } from "../components/settings/CurrentPasswordField.tsx";
import { useEffect, useState } from "react";
import { island } from "../framework/island.tsx";
import { ErrorView } from "../components/ErrorView.tsx";
import {
  ApiError,
  createUser,
  deleteUser,
  getSettings,
  getUser,
  resetTwoFactor,
  saveUser,
} from "../client/api/mod.ts";
import { usePage } from "../client/hooks.ts";
import { baseUrl } from "../client/page.ts";
import { registerPrompt, showPrompt } from "../client/prompts.ts";
import { userFromDefaults } from "../client/settings.ts";
import { showError, showSuccess, showSuccessOnNextPage } from "../client/toasts.ts";
import type { AppPasswordInfo, User, UserDefaults } from "../lib/types.ts";
import { DeleteUserPrompt } from "./settings/DeleteUserPrompt.tsx";
import { UserForm } from "./settings/UserForm.tsx";
import { AppPasswordsCard } from "./settings/AppPasswordsCard.tsx";
import { checkPassword } from "../client/password_policy.ts";

registerPrompt("settings-delete-user", DeleteUserPrompt, { labelKey: "prompts.delete.title" });

/** Props of SettingsUser. */
export interface SettingsUserProps {
  /** The user id, or "new". */
  id: string;
  /** The user to edit, as the API answers it. */
  user?: User;
  /** For a new user: the defaults it starts from. */
  defaults?: NewUserDefaults;
  /** The user's app passwords (json and hook authentication), when the page brought them. */
  appPasswords?: AppPasswordInfo[] | null;
}

interface Loaded {
  user: User;
  /** Username as loaded (the title does not follow typing). */
  name: string;
  createHome: boolean;
  /** The scope "create home directory" restores when unticked. */
  scope: string;
}

/** What the server puts in the page for a new user: the defaults of new users. */
export interface NewUserDefaults {
  defaults: UserDefaults;
  createUserDir: boolean;
}

function fromDefaults(d: NewUserDefaults): Loaded {
  const user = userFromDefaults(d.defaults);
  const scope = user.scope;
  if (d.createUserDir) user.scope = "";
  return { user, name: "", createHome: d.createUserDir, scope };
}

function fromUser(user: User): Loaded {
  return { user: { ...user, password: "" }, name: user.username, createHome: false, scope: user.scope };
}

async function load(id: string): Promise<Loaded> {
  if (id === "new") return fromDefaults(await getSettings());
  const n = Number(id);
  if (!Number.isInteger(n) || n < 1) throw new ApiError(404, "not found");
  return fromUser(await getUser(n));
}

/** The form's data from the page, if the server put it there. */
function initialOf(props: SettingsUserProps): Loaded | null {
  if (props.user) return fromUser(props.user);
  return props.defaults ? fromDefaults(props.defaults) : null;
}

function SettingsUserImpl(props: SettingsUserProps) {
  const { config, user: me, locale, t } = usePage();
  const isNew = props.id === "new";
  const [data, setData] = useState<Loaded | null>(() => initialOf(props));
  const [error, setError] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  // The admin's own password: json auth re-authenticates every save of this form (it may change names, passwords,
  // permissions) and every deletion.
  const [current, setCurrent] = useState("");
  const askCurrent = config.AuthMethod === "json";
  useEffect(() => {
    // The page brings the user (or the defaults); the API only when it came without.
    if (initialOf(props)) return;
    load(props.id).then(setData).catch((err) => setError(err instanceof ApiError ? err.status : 500));
  }, [props.id]);
  // An empty password keeps the current one (existing users); any other must meet the length rule.
  const typed = data?.user.password ?? "";
  const passwordRefused = typed !== "" && !checkPassword(typed, null, config.MinimumPasswordLength).ok;
  if (error !== null) return <ErrorView status={error} t={t} homeUrl={`${config.BaseURL}/files/`} />;
  if (!data) return <p class="settings-loading" data-testid="settings-loading">{t("files.loading")}</p>;
  const save = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      if (isNew) {
        const id = await createUser(data.user, { currentPassword: current });
        showSuccessOnNextPage(t("settings.userCreated"));
        location.assign(`${baseUrl()}/settings/users/${id}`);
        return;
      }
      await saveUser(data.user, { currentPassword: current });
      setCurrent("");
      setData({ ...data, name: data.user.username, user: { ...data.user, password: "" } });
      showSuccess(t("settings.userUpdated"));
    } catch (err) {
      showError(err);
    } finally {
      setBusy(false);
    }
  };
  // Uses the admin's password typed in the form above (re-authentication, like a save).
  const resetTwoFa = () =>
    resetTwoFactor(data.user.id, current).then(() => showSuccess(t("settings.twofa.resetDone")), showError);
  const remove = () =>
    showPrompt("settings-delete-user", {
      onConfirm: async (currentPassword: string) => {
        try {
          await deleteUser(data.user.id, { currentPassword });
          showSuccessOnNextPage(t("settings.userDeleted"));
          location.assign(`${baseUrl()}/settings/users`);
        } catch (err) {
          showError(err);
        }
      },
    });
  // An admin's own second factor is turned off in the profile, with a code; this route would ask for one too.
  const canReset = !isNew && me?.id !== data.user.id;
  const accountCards = !isNew && (config.AuthMethod === "json" || config.AuthMethod === "hook");
  const form = (
    <form class="card settings-card wide" onSubmit={save} data-testid="user-edit">
      <h2 class="card-title">
        {isNew ? t("settings.users.newTitle") : t("settings.users.userTitle", { name: data.name })}
      </h2>
      <div class="card-content">
        <UserForm
          value={data.user}
          onChange={(user) => setData((cur) => cur && { ...cur, user })}
          isNew={isNew}
          createHome={data.createHome}
          initialScope={data.scope}
          onCreateHome={(createHome) => setData((cur) => cur && { ...cur, createHome })}
          exec={config.EnableExec}
          t={t}
        />
        {askCurrent && <CurrentPasswordField value={current} onInput={setCurrent} required t={t} />}
      </div>
      <div class="card-actions">
        {canReset && (
          <button type="button" class="button flat" onClick={resetTwoFa} data-testid="reset-twofa-button">
            {t("settings.twofa.reset")}
          </button>
        )}
        {!isNew && (
          <button type="button" class="button danger" onClick={remove} data-testid="delete-user-button">
            {t("buttons.delete")}
          </button>
        )}
        <button type="submit" class="button" disabled={busy || passwordRefused}>{t("settings.save")}</button>
      </div>
    </form>
  );
  if (!accountCards) return form;
  return (
    <div class="settings-column">
      {form}
      <AppPasswordsCard
        askCurrent={false}
        canCreate={false}
        userId={data.user.id}
        list={props.appPasswords}
        locale={locale}
        t={t}
      />
    </div>
  );
}

/** Creates (`id` "new") or edits one user (admin): the user form, Save, Delete with confirmation. */
export const SettingsUser = island("SettingsUser", SettingsUserImpl);
