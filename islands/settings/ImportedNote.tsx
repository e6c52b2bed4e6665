import type { TranslateVars } from "../../lib/i18n.ts";
import type { FilebrowserImport } from "../../lib/types.ts";

/** Read-only note of the last import from filebrowser, with its report (conflicts, broken rules...). */
export function ImportedNote(
  props: { record: FilebrowserImport; locale: string; t: (k: string, vars?: TranslateVars) => string },
) {
  const { record: r, t } = props;
  let date: string;
  try {
    date = new Date(r.at).toLocaleString(props.locale);
  } catch {
    date = new Date(r.at).toISOString();
  }
  return (
    <details class="settings-imported" data-testid="imported-note">
      <summary>{t("settings.imported.title", { date })}</summary>
      <p class="settings-hint">
        {t("settings.imported.summary", { users: r.users, shares: r.shares, skipped: r.skipped })}
      </p>
      {r.lines.length > 0 && <ul class="settings-hint mono">{r.lines.map((l, i) => <li key={i}>{l}</li>)}
      </ul>}
    </details>
  );
}
