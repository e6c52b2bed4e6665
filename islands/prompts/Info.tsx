import { useState } from "react";
import { PromptCard } from "../../components/PromptCard.tsx";
import { getResource } from "../../client/api/mod.ts";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";
import { resource, selectedItems } from "../../client/state.ts";
import { showError } from "../../client/toasts.ts";
import { FolderSizeRow } from "./FolderSizeRow.tsx";
import { formatDate, formatNumber, formatRelative, formatSize } from "../../lib/format.ts";
import type { Resource } from "../../lib/types.ts";

const ALGORITHMS = ["md5", "sha1", "sha256", "sha512"];

function Checksum(props: { path: string; algo: string; t: (k: string) => string }) {
  const [value, setValue] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const reveal = async () => {
    setBusy(true);
    try {
      const res = await getResource(props.path, { checksum: props.algo });
      setValue(res.checksums?.[props.algo] ?? "");
    } catch (err) {
      showError(err);
    }
    setBusy(false);
  };
  return (
    <div class="info-row">
      <dt>{props.algo.toUpperCase()}</dt>
      <dd>
        {value !== null
          ? <code class="checksum" data-testid={`checksum-${props.algo}`}>{value}</code>
          : (
            <button
              type="button"
              class="link"
              disabled={busy}
              onClick={reveal}
              data-testid={`reveal-${props.algo}`}
            >
              {showLabel(props.t, busy)}
            </button>
          )}
      </dd>
    </div>
  );
}

function showLabel(t: (k: string) => string, busy: boolean): string {
  return busy ? t("files.loading") : t("prompts.info.show");
}

/** File info: name, size, modified (relative with the full date as tooltip), counts, checksums on click. */
export function InfoPrompt(props: PromptProps) {
  const { t, locale, user } = usePage();
  const selected = selectedItems.value;
  const current = resource.value;
  const target: Resource | null = selected.length === 1
    ? selected[0]
    : selected.length === 0
    ? current
    : null;
  const totalSize = selected.reduce((n, i) => n + (i.isDir ? 0 : i.size), 0);
  const modified = target?.modified;
  const bytes = selected.length > 1 ? totalSize : target?.size ?? 0;
  return (
    <PromptCard
      title={t("prompts.info.title")}
      testId="info"
      actions={
        <button type="button" class="button" autoFocus onClick={props.close}>{t("buttons.ok")}</button>
      }
    >
      {selected.length > 1 && <p>{t("prompts.info.selected", { count: selected.length })}</p>}
      <dl class="info">
        {target && (
          <div class="info-row">
            <dt>{t("prompts.info.name")}</dt>
            <dd class="break" dir="auto">{target.name || t("sidebar.myFiles")}</dd>
          </div>
        )}
        {(selected.length > 1 || (target && !target.isDir)) && (
          <div class="info-row">
            <dt>{t("prompts.info.size")}</dt>
            <dd>
              <bdi>{formatSize(bytes, locale)}</bdi>{" "}
              <span class="muted">
                ({t("prompts.info.bytes", { count: bytes, bytes: formatNumber(bytes, locale) })})
              </span>
            </dd>
          </div>
        )}
        {target?.isDir && selected.length <= 1 && <FolderSizeRow path={target.path} />}
        {modified && (
          <div class="info-row">
            <dt>{t("prompts.info.modified")}</dt>
            <dd>
              <time dateTime={modified} title={formatDate(modified, locale)}>
                {user?.dateFormat ? formatDate(modified, locale) : formatRelative(modified, { locale })}
              </time>
            </dd>
          </div>
        )}
        {selected.length === 0 && current?.isDir && (
          <>
            <div class="info-row">
              <dt>{t("prompts.info.numDirs")}</dt>
              <dd>{formatNumber(current.numDirs ?? 0, locale)}</dd>
            </div>
            <div class="info-row">
              <dt>{t("prompts.info.numFiles")}</dt>
              <dd>{formatNumber(current.numFiles ?? 0, locale)}</dd>
            </div>
          </>
        )}
        {target && !target.isDir && user?.perm.download &&
          ALGORITHMS.map((a) => <Checksum key={a} path={target.path} algo={a} t={t} />)}
      </dl>
    </PromptCard>
  );
}
