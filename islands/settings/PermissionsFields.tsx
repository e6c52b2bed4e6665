import { Check } from "../../components/settings/Check.tsx";
import { togglePermission } from "../../client/settings.ts";
import type { Permissions } from "../../lib/types.ts";
import { PERMISSION_NAMES } from "../../lib/types.ts";

/** The permission checkboxes; admin ticks and locks the others; execute only when command execution is on. */
export function PermissionsFields(
  props: { perm: Permissions; onChange: (p: Permissions) => void; exec: boolean; t: (k: string) => string },
) {
  const { perm, t } = props;
  const names = PERMISSION_NAMES.filter((n) => n !== "execute" || props.exec);
  return (
    <fieldset class="settings-group" data-testid="permissions">
      <legend>{t("settings.perm.title")}</legend>
      {names.map((name) => (
        <Check
          key={name}
          name={`perm.${name}`}
          label={t(`settings.perm.${name}`)}
          checked={!!perm[name]}
          disabled={name !== "admin" && perm.admin}
          onChange={(on) => props.onChange(togglePermission(perm, name, on))}
        />
      ))}
    </fieldset>
  );
}
