import { useEffect } from "react";
import { DropZone } from "../../components/upload/DropZone.tsx";
import { UPLOAD_CSS } from "../../components/upload/styles.ts";
import { usePage } from "../../client/hooks.ts";
import { IS_BROWSER } from "../../client/page.ts";
import { bindLeaveWarning, uploadQueue } from "../../client/upload/mod.ts";
import { canUpload } from "../../client/upload/ui.ts";
import { UploadPanel } from "./UploadPanel.tsx";
import { useFileDrop } from "./use_file_drop.ts";
import "./mod.ts";

/**
 * Everything about uploads on the files page: the drop zone while files are dragged over it, the upload panel
 * while the queue is busy, and the browser's leave warning during uploads.
 */
export function UploadLayer() {
  const page = usePage();
  const { t } = page;
  useEffect(() => bindLeaveWarning(uploadQueue, window), []);
  const drop = useFileDrop({ enabled: canUpload(page.user) });
  const count = IS_BROWSER ? uploadQueue.count.value : 0;
  const where = drop?.name || t("sidebar.myFiles");
  return (
    <>
      <style>{UPLOAD_CSS}</style>
      {drop && (
        <DropZone
          label={drop.refused
            ? t("upload.drop.refused", { name: where })
            : t("upload.drop.here", { name: where })}
          onRow={drop.onRow}
          refused={drop.refused}
        />
      )}
      {count > 0 && <UploadPanel page={page} />}
    </>
  );
}
