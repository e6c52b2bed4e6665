import { useEffect, useState } from "react";
import { PromptCard } from "../../components/PromptCard.tsx";
import { DropFields } from "../../components/share/DropFields.tsx";
import { ShareLinkList } from "../../components/share/ShareLinkList.tsx";
import { ShareStyles } from "../../components/share/styles.tsx";
import { usePage } from "../../client/hooks.ts";
import { showPrompt } from "../../client/prompts.ts";
import type { PromptProps } from "../../client/prompts.ts";
import {
  copyShareLink,
  createShare,
  defaultCustomLink,
  isValidCustomLink,
  MAX_SHARE_DURATION,
  type NewShare,
  SHARE_UNITS,
  type ShareUnit,
  sortShares,
} from "../../client/share.ts";
import { listSharesOf, shareUrl } from "../../client/api/mod.ts";
import { showError } from "../../client/toasts.ts";
import type { Share } from "../../lib/types.ts";

function emptyForm(name: string): NewShare {
  return { expires: "", unit: "hours", password: "", custom: false, customLink: defaultCustomLink(name) };
}

/** The share dialog: existing links (copy, delete) and the creation form (duration, password, custom link). */
export function SharePrompt(props: PromptProps<{ path: string; name: string }>) {
  const { t, locale } = usePage();
  const { path, name } = props.props;
  const [links, setLinks] = useState<Share[] | null>(null);
  const [mode, setMode] = useState<"list" | "create">("list");
  const [form, setForm] = useState<NewShare>(() => emptyForm(name));
  const [invalid, setInvalid] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = async (options: { startCreating?: boolean } = {}) => {
    try {
      const list = await listSharesOf(path);
      setLinks(list);
      if (options.startCreating && list.length === 0) setMode("create");
    } catch (err) {
      showError(err);
      props.close();
    }
  };
  useEffect(() => void load({ startCreating: true }), [path]);

  const set = (patch: Partial<NewShare>) => setForm((f) => ({ ...f, ...patch }));
  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    if (form.custom && !isValidCustomLink(form.customLink)) {
      setInvalid(true);
      return;
    }
    setBusy(true);
    try {
      await createShare(path, form);
      setForm(emptyForm(name));
      setInvalid(false);
      await load();
      setMode("list");
    } catch (err) {
      showError(err);
    } finally {
      setBusy(false);
    }
  };
  const cancel = () => {
    if (links && links.length) setMode("list");
    else props.close();
  };
  const copy = (hash: string) => copyShareLink(hash, t("share.linkCopied"));

  if (mode === "create") {
    return (
      <PromptCard title={t("share.title")} testId="share">
        <ShareStyles />
        <form id="share-form" class="share-form" onSubmit={submit} data-testid="share-form">
          <div class="field">
            <label for="share-expires">{t("share.duration")}</label>
            <div class="share-duration">
              <input
                id="share-expires"
                class="input"
                type="number"
                min={1}
                max={MAX_SHARE_DURATION}
                step={1}
                value={form.expires}
                placeholder={t("share.permanent")}
                onInput={(e) => set({ expires: (e.target as HTMLInputElement).value })}
                data-testid="share-expires"
                autoFocus
              />
              <select
                class="input"
                aria-label={t("share.unitLabel")}
                value={form.unit}
                onChange={(e) => set({ unit: (e.target as HTMLSelectElement).value as ShareUnit })}
                data-testid="share-unit"
              >
                {SHARE_UNITS.map((u) => <option key={u} value={u}>{t(`share.unit.${u}`)}</option>)}
              </select>
            </div>
          </div>
          <div class="field">
            <label for="share-password">{t("share.password")}</label>
            <input
              id="share-password"
              class="input"
              type="password"
              autoComplete="new-password"
              value={form.password}
              onInput={(e) => set({ password: (e.target as HTMLInputElement).value })}
              data-testid="share-password"
            />
          </div>
          <label class="share-check">
            <input
              type="checkbox"
              checked={form.custom}
              onChange={(e) => set({ custom: (e.target as HTMLInputElement).checked })}
              data-testid="share-custom"
            />
            {t("share.custom")}
          </label>
          {form.custom && (
            <div class="field">
              <label for="share-custom-link">{t("share.customLink")}</label>
              <input
                id="share-custom-link"
                class="input"
                value={form.customLink}
                onInput={(e) => {
                  set({ customLink: (e.target as HTMLInputElement).value });
                  setInvalid(false);
                }}
                aria-invalid={invalid}
                aria-describedby="share-custom-rule"
                data-testid="share-custom-link"
              />
              {/* The rule is shown before submitting; a refused link turns it into an alert. */}
              <p
                id="share-custom-rule"
                class={invalid ? "share-error" : "share-hint"}
                role={invalid ? "alert" : undefined}
                data-testid="share-custom-rule"
              >
                {t("share.customInvalid")}
              </p>
            </div>
          )}
          {path.endsWith("/") && <DropFields form={form} set={set} t={t} />}
        </form>
        <div class="card-actions">
          <button type="button" class="button flat" onClick={cancel}>{t("buttons.cancel")}</button>
          <button type="submit" form="share-form" class="button" disabled={busy} data-testid="share-create">
            {t("share.create")}
          </button>
        </div>
      </PromptCard>
    );
  }

  return (
    <PromptCard
      title={t("share.title")}
      testId="share"
      actions={
        <>
          <button type="button" class="button flat" onClick={props.close}>{t("buttons.close")}</button>
          <button type="button" class="button" onClick={() => setMode("create")} data-testid="share-new">
            {t("share.new")}
          </button>
        </>
      }
    >
      <ShareStyles />
      {links === null ? <p class="muted">{t("files.loading")}</p> : (
        <ShareLinkList
          links={sortShares(links)}
          urlOf={shareUrl}
          onCopy={copy}
          onDelete={(hash) => showPrompt("share-delete", { hash, onDone: () => load() })}
          locale={locale}
          t={t}
        />
      )}
    </PromptCard>
  );
}
