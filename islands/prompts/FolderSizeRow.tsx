import { useEffect, useRef, useState } from "react";
import { usePage } from "../../client/hooks.ts";
import { folderKey, folderSizes, measureFolderSize } from "../../client/folder_sizes.ts";
import { showError } from "../../client/toasts.ts";
import { formatNumber, formatSize } from "../../lib/format.ts";
import type { FolderSize } from "../../lib/types.ts";

/** The info prompt's size row of a folder: the known size, or a button that measures it (with progress). */
export function FolderSizeRow(props: { path: string }) {
  const { t, locale } = usePage();
  const { path } = props;
  const known = folderSizes.value.get(folderKey(path)) ?? null;
  const [running, setRunning] = useState<FolderSize | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const measure = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setRunning({ bytes: 0, files: 0, folders: 0 });
    try {
      await measureFolderSize(path, { signal: controller.signal, onProgress: setRunning });
    } catch (err) {
      if (!controller.signal.aborted) showError(err);
    }
    setRunning(null);
  };
  const shown = running ?? known;
  return (
    <div class="info-row">
      <dt>{t("prompts.info.size")}</dt>
      <dd data-testid="folder-size">
        {shown && (
          <>
            <bdi>{formatSize(shown.bytes, locale)}</bdi>{" "}
            <span class="muted">
              ({t("prompts.info.folderCounts", {
                files: formatNumber(shown.files, locale),
                folders: formatNumber(shown.folders, locale),
              })})
            </span>
            {" "}
          </>
        )}
        {running
          ? <span class="muted">{t("files.loading")}</span>
          : (
            <button type="button" class="link" onClick={measure} data-testid="folder-size-calculate">
              {known ? t("prompts.info.recalculate") : t("prompts.info.calculate")}
            </button>
          )}
      </dd>
    </div>
  );
}
