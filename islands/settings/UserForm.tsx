import { useState } from "react";
import { Check } from "../../components/settings/Check.tsx";
import { ListInput } from "../../components/settings/ListInput.tsx";
import { LocaleSelect } from "../../components/settings/LocaleSelect.tsx";
import { usePage } from "../../client/hooks.ts";
import { PasswordFields } from "../../components/PasswordFields.tsx";
import { splitWords } from "../../client/settings.ts";
import type { User } from "../../lib/types.ts";
import { PermissionsFields } from "./PermissionsFields.tsx";
import { RulesEditor } from "./RulesEditor.tsx";

const MIB = 1024 * 1024;

/** Props of UserForm. */
export interface UserFormProps {
  value: User;
  onChange: (u: User) => void;
  isNew: boolean;
  /** New users: "create home directory" starts ticked (settings.createUserDir). */
  createHome: boolean;
  onCreateHome: (on: boolean) => void;
  /** The scope restored when "create home directory" is unticked. */
  initialScope: string;
  exec: boolean;
  t: (k: string, vars?: Record<string, string | number>) => string;
}

/**
 * The user fields: ticking admin ticks and locks the other permissions and clears and locks
 * lockPassword; ticking "create home directory" on a new user clears and locks the scope, unticking restores it.
 */
export function UserForm(props: UserFormProps) {
  const { value: u, t } = props;
  const { config } = usePage();
  const [savedScope, setSavedScope] = useState(props.initialScope);
  const set = <K extends keyof User>(k: K) => (v: User[K]) => props.onChange({ ...u, [k]: v });
  const input = (k: "username" | "scope", extra: Record<string, unknown> = {}) => (
    <input
      class="input"
      name={k}
      value={u[k]}
      onInput={(e) => set(k)((e.currentTarget as HTMLInputElement).value)}
      {...extra}
    />
  );
  const homeLocked = props.isNew && props.createHome;
  return (
    <div class="settings-fields" data-testid="user-form">
      <label class="field">
        <span>{t("settings.username")}</span>
        {input("username", { autocomplete: "off", required: true })}
      </label>
      <PasswordFields
        id="user"
        label={t("settings.password")}
        password={u.password ?? ""}
        confirm={null}
        onPassword={set("password")}
        minLength={config.MinimumPasswordLength}
        visibleLabels
        placeholder={props.isNew ? "" : t("settings.passwordKeep")}
        t={t}
      />
      <label class="field">
        <span>{t("settings.scope")}</span>
        {input("scope", { disabled: homeLocked, placeholder: homeLocked ? t("settings.scopeAuto") : "" })}
      </label>
      <label class="field">
        <span>{t("settings.quota")}</span>
        <input
          class="input"
          name="quota"
          type="number"
          min="0"
          step="any"
          inputMode="decimal"
          value={u.quota ? +(u.quota / MIB).toFixed(3) : ""}
          placeholder={t("settings.quotaNone")}
          onInput={(e) =>
            set("quota")(Math.round(Math.max(0, +(e.currentTarget as HTMLInputElement).value || 0) * MIB))}
        />
      </label>
      {props.isNew && (
        <Check
          name="createHome"
          label={t("settings.createUserHomeDir")}
          checked={props.createHome}
          onChange={(on) => {
            if (on) {
              setSavedScope(u.scope);
              props.onChange({ ...u, scope: "" });
            } else props.onChange({ ...u, scope: savedScope });
            props.onCreateHome(on);
          }}
        />
      )}
      <label class="field">
        <span>{t("settings.language")}</span>
        <LocaleSelect value={u.locale} onChange={set("locale")} emptyLabel={t("settings.browserLanguage")} />
      </label>
      <Check
        name="lockPassword"
        label={t("settings.lockPassword")}
        checked={u.lockPassword}
        disabled={u.perm.admin}
        onChange={set("lockPassword")}
      />
      {config.WebDAV && (
        <Check
          name="webdav"
          label={t("settings.webdavAccess")}
          checked={u.webdav !== false}
          onChange={set("webdav")}
        />
      )}
      <PermissionsFields
        perm={u.perm}
        exec={props.exec}
        t={t}
        onChange={(perm) => props.onChange({ ...u, perm, lockPassword: perm.admin ? false : u.lockPassword })}
      />
      {props.exec && (
        <label class="field">
          <span>{t("settings.commands")}</span>
          <ListInput name="commands" value={u.commands} split={splitWords} onChange={set("commands")} />
        </label>
      )}
      <fieldset class="settings-group">
        <legend>{t("settings.rules.title")}</legend>
        <p class="settings-hint">{t("settings.rules.userHint")}</p>
        <RulesEditor rules={u.rules} onChange={set("rules")} t={t} />
      </fieldset>
    </div>
  );
}
