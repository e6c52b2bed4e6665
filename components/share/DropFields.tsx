import type { NewShare } from "../../client/share.ts";

/** Props of DropFields. */
export interface DropFieldsProps {
  form: NewShare;
  set: (patch: Partial<NewShare>) => void;
  t: (key: string, vars?: Record<string, string | number>) => string;
}

/** The share dialog's "upload-only link" switch and its limits (folders only). */
export function DropFields({ form, set, t }: DropFieldsProps) {
  return (
    <>
      <label class="share-check">
        <input
          type="checkbox"
          checked={!!form.drop}
          onChange={(e) => set({ drop: (e.target as HTMLInputElement).checked })}
          data-testid="share-drop"
        />
        {t("share.drop")}
      </label>
      {form.drop && (
        <>
          <p class="share-hint">{t("share.dropHint")}</p>
          <div class="field">
            <label for="share-drop-size">{t("share.dropMaxSize")}</label>
            <input
              id="share-drop-size"
              class="input"
              type="number"
              min={0}
              step="any"
              value={form.maxFileSizeMb ?? ""}
              placeholder={t("share.dropNoLimit")}
              onInput={(e) => set({ maxFileSizeMb: (e.target as HTMLInputElement).value })}
              data-testid="share-drop-size"
            />
          </div>
          <div class="field">
            <label for="share-drop-files">{t("share.dropMaxFiles")}</label>
            <input
              id="share-drop-files"
              class="input"
              type="number"
              min={0}
              step={1}
              value={form.maxFiles ?? ""}
              placeholder={t("share.dropNoLimit")}
              onInput={(e) => set({ maxFiles: (e.target as HTMLInputElement).value })}
              data-testid="share-drop-files"
            />
          </div>
        </>
      )}
    </>
  );
}
