import { useEffect, useState } from "react";
import { island } from "../framework/island.tsx";
import { DataTable } from "../components/settings/DataTable.tsx";
import { Icon } from "../components/Icon.tsx";
import { Check as CheckIcon, X } from "../components/icons.ts";
import { ErrorView } from "../components/ErrorView.tsx";
import { ApiError, listUsers } from "../client/api/mod.ts";
import { usePage } from "../client/hooks.ts";
import type { User } from "../lib/types.ts";

function SettingsUsersImpl(props: { users?: User[] }) {
  const { config, t } = usePage();
  const base = config.BaseURL;
  const [users, setUsers] = useState<User[] | null>(props.users ?? null);
  const [error, setError] = useState<number | null>(null);
  useEffect(() => {
    // The page brings the list; the API only when it came without.
    if (props.users) return;
    listUsers().then(setUsers).catch((err) => setError(err instanceof ApiError ? err.status : 500));
  }, []);
  if (error !== null) return <ErrorView status={error} t={t} />;
  return (
    <section class="card settings-card wide" data-testid="users">
      <div class="settings-card-head">
        <h2 class="card-title">{t("settings.users.title")}</h2>
        <a class="button" href={`${base}/settings/users/new`} data-testid="new-user">
          {t("settings.users.new")}
        </a>
      </div>
      <div class="card-content">
        <DataTable
          rows={users}
          loading={t("files.loading")}
          columns={[
            t("settings.username"),
            t("settings.perm.admin"),
            t("settings.scope"),
            { hidden: t("settings.users.edit") },
          ]}
          row={(u) => (
            <tr key={u.id} data-username={u.username}>
              <td>{u.username}</td>
              <td data-admin={String(u.perm.admin)}>
                <Icon node={u.perm.admin ? CheckIcon : X} />
                <span class="sr-only">{u.perm.admin ? t("settings.yes") : t("settings.no")}</span>
              </td>
              <td>{u.scope}</td>
              <td>
                <a href={`${base}/settings/users/${u.id}`} class="button flat">
                  {t("settings.users.edit")}
                </a>
              </td>
            </tr>
          )}
        />
      </div>
    </section>
  );
}

/** The user list (admin): username, admin tick or cross, scope, edit link; a button to create a user. */
export const SettingsUsers = island("SettingsUsers", SettingsUsersImpl);
