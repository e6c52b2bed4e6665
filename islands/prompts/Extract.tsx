import { useEffect, useRef, useState } from "react";
import { PromptCard } from "../../components/PromptCard.tsx";
import { ApiError, extractArchive } from "../../client/api/mod.ts";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";
import { requestReload } from "../../client/state.ts";
import { showError, showSuccess } from "../../client/toasts.ts";
import type { ExtractConflict } from "../../lib/extract/formats.ts";
import { formatNumber, formatSize } from "../../lib/format.ts";
import type { ExtractEvent, Resource } from "../../lib/types.ts";

const CONFLICTS: ExtractConflict[] = ["skip", "replace", "rename"];

interface Progress {
  entries: number;
  total: number;
  bytes: number;
}

/** "Extract here": the conflict choice, then progress until done; Cancel (or closing) stops the extraction. */
export function ExtractPrompt(props: PromptProps<{ item: Resource; dir: string }>) {
  const { t, locale, user } = usePage();
  const { item, dir } = props.props;
  const [conflict, setConflict] = useState<ExtractConflict>("skip");
  const [progress, setProgress] = useState<Progress | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const onEvent = (event: ExtractEvent) => {
    if (event.type === "start") setProgress({ entries: 0, total: event.entries, bytes: 0 });
    else if (event.type === "progress") {
      setProgress((p) => ({ total: p?.total ?? 0, entries: event.entries, bytes: event.bytes }));
    }
  };

  const start = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setProgress({ entries: 0, total: 0, bytes: 0 });
    try {
      const last = await extractArchive(item.path, {
        destination: dir,
        conflict,
        onEvent,
        signal: controller.signal,
      });
      props.close();
      requestReload();
      if (last?.type === "done") {
        const message = t("prompts.extract.done", { n: last.files });
        showSuccess(
          last.skipped ? `${message} · ${t("prompts.extract.skipped", { n: last.skipped })}` : message,
        );
      } else if (last?.type === "error") showError(new ApiError(last.status, last.message));
    } catch (err) {
      if (controller.signal.aborted) return;
      props.close();
      showError(err);
    }
  };

  return (
    <PromptCard
      title={t("prompts.extract.title")}
      testId="extract"
      actions={
        <>
          <button type="button" class="button flat" onClick={props.close}>{t("buttons.cancel")}</button>
          {progress === null && (
            <button type="button" class="button" autoFocus onClick={start} data-testid="extract-start">
              {t("buttons.extract")}
            </button>
          )}
        </>
      }
    >
      <p class="break">{t("prompts.extract.message", { name: item.name, dir })}</p>
      {progress === null
        ? (
          <fieldset class="choices">
            <legend>{t("prompts.extract.conflict")}</legend>
            {CONFLICTS.map((c) => (
              <label key={c}>
                <input
                  type="radio"
                  name="conflict"
                  value={c}
                  checked={conflict === c}
                  disabled={c === "replace" && !user?.perm.modify}
                  onChange={() => setConflict(c)}
                />{" "}
                {t(`prompts.extract.${c}`)}
              </label>
            ))}
          </fieldset>
        )
        : (
          <p role="status" data-testid="extract-progress">
            {progress.total
              ? t("prompts.extract.progress", {
                done: formatNumber(progress.entries, locale),
                total: formatNumber(progress.total, locale),
                size: formatSize(progress.bytes, locale),
              })
              : t("files.loading")}
          </p>
        )}
    </PromptCard>
  );
}
