import { useEffect, useRef, useState } from "react";
import { island } from "../framework/island.tsx";
import { ErrorView } from "../components/ErrorView.tsx";
import { ApiError, auditSearch, listAudit } from "../client/api/mod.ts";
import { baseUrl } from "../client/page.ts";
import { usePage } from "../client/hooks.ts";
import { showError } from "../client/toasts.ts";
import { formatDate } from "../lib/format.ts";
import type { AuditEntry, AuditQuery } from "../lib/types.ts";
import { ACTIONS, EMPTY, type Form, toQuery } from "./settings/audit_filter.ts";

/** Props of SettingsAudit: the newest unfiltered entries, when the page brought them. */
interface SettingsAuditProps {
  first?: { entries: AuditEntry[]; cursor: string | null } | null;
}

function SettingsAuditImpl(props: SettingsAuditProps) {
  const { t, locale } = usePage();
  const [form, setForm] = useState<Form>(EMPTY);
  const [query, setQuery] = useState<AuditQuery>({});
  const [entries, setEntries] = useState<AuditEntry[] | null>(props.first?.entries ?? null);
  const [cursor, setCursor] = useState<string | null>(props.first?.cursor ?? null);
  // The page brought the unfiltered first page: the API is asked when the filter changes or for more.
  const brought = useRef(!!props.first);
  const [error, setError] = useState<number | null>(null);

  const load = async (q: AuditQuery, after?: string) => {
    try {
      const page = await listAudit(q, after);
      setEntries((cur) => after ? [...(cur ?? []), ...page.entries] : page.entries);
      setCursor(page.cursor);
    } catch (err) {
      if (err instanceof ApiError && (err.status === 403 || err.status === 401)) setError(err.status);
      else showError(err);
    }
  };
  useEffect(() => {
    if (brought.current) brought.current = false;
    else void load(query);
  }, [query]);

  const field = (name: keyof Form, type: "text" | "date" = "text", list?: string) => (
    <label class="field">
      <span>{t(`audit.filter.${name}`)}</span>
      <input
        class="input"
        type={type}
        name={name}
        list={list}
        value={form[name]}
        data-testid={`audit-filter-${name}`}
        onInput={(e) => setForm({ ...form, [name]: (e.currentTarget as HTMLInputElement).value })}
      />
    </label>
  );

  if (error !== null) return <ErrorView status={error} t={t} />;
  const csv = `${baseUrl()}/api/audit?${auditSearch(query, { format: "csv" })}`;
  return (
    <section class="card settings-card wide" data-testid="audit">
      <div class="settings-card-head">
        <h2 class="card-title">{t("audit.title")}</h2>
        <a class="button flat" href={csv} download="audit.csv" data-testid="audit-export">
          {t("audit.export")}
        </a>
      </div>
      <div class="card-content">
        <form
          class="audit-filters"
          data-testid="audit-filters"
          onSubmit={(e) => {
            e.preventDefault();
            setEntries(null);
            setQuery(toQuery(form));
          }}
        >
          {field("user")}
          {field("action", "text", "audit-actions")}
          <datalist id="audit-actions">
            {ACTIONS.map((a) => <option key={a} value={a} />)}
          </datalist>
          {field("path")}
          {field("from", "date")}
          {field("to", "date")}
          <div class="audit-filter-buttons">
            <button type="submit" class="button" data-testid="audit-apply">{t("audit.apply")}</button>
            <button
              type="button"
              class="button flat"
              onClick={() => {
                setForm(EMPTY);
                setEntries(null);
                setQuery({});
              }}
            >
              {t("audit.clear")}
            </button>
          </div>
        </form>
        {!entries
          ? <p class="muted">{t("files.loading")}</p>
          : !entries.length
          ? <p class="empty" data-testid="audit-empty">{t("audit.empty")}</p>
          : (
            <div class="audit-scroll">
              <table class="settings-table audit-table">
                <thead>
                  <tr>
                    <th>{t("audit.time")}</th>
                    <th>{t("audit.filter.user")}</th>
                    <th>{t("audit.filter.action")}</th>
                    <th>{t("audit.filter.path")}</th>
                    <th>{t("audit.client")}</th>
                    <th>{t("audit.result")}</th>
                  </tr>
                </thead>
                <tbody>
                  {entries.map((e) => (
                    <tr key={`${e.time}.${e.id}`} data-testid="audit-entry" data-action={e.action}>
                      <td class="nowrap">{formatDate(new Date(e.time).toISOString(), locale)}</td>
                      <td>
                        <bdi>{e.user || t("audit.anonymous")}</bdi>
                      </td>
                      <td class="mono">{e.action}</td>
                      <td class="break">
                        <bdi>{e.path}</bdi>
                        {e.target && (
                          <>
                            {" → "}
                            <bdi>{e.target}</bdi>
                          </>
                        )}
                        {e.detail && <span class="muted">{` (${e.detail})`}</span>}
                      </td>
                      <td class="mono">{e.client}</td>
                      <td data-ok={String(e.ok)} title={String(e.status)}>
                        {e.ok ? t("audit.ok") : t("audit.failed", { status: e.status })}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        {cursor && entries && (
          <button
            type="button"
            class="button flat"
            data-testid="audit-more"
            onClick={() => load(query, cursor)}
          >
            {t("audit.more")}
          </button>
        )}
      </div>
    </section>
  );
}

/** Settings › Audit (admins): who did what, from where and when, filtered, with a CSV export. */
export const SettingsAudit = island("SettingsAudit", SettingsAuditImpl);
