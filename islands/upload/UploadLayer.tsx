import { DropZone } from "../../components/upload/DropZone.tsx";
import { UPLOAD_CSS } from "../../components/upload/styles.ts";
import { usePage } from "../../client/hooks.ts";
import { canUpload } from "../../client/upload/ui.ts";
import { loadedQueue } from "../../client/upload/ui_queue.ts";
import { UploadPanel } from "./UploadPanel.tsx";
import { useFileDrop } from "./use_file_drop.ts";
import "./mod.ts";

/**
 * Everything about uploads on the files page: the drop zone while files are dragged over it, the upload panel
 * while the queue is busy (the queue and its leave warning load with the first upload, see ui_queue.ts).
 */
export function UploadLayer() {
  const page = usePage();
  const { t } = page;
  const drop = useFileDrop({ enabled: canUpload(page.user) });
  const queue = loadedQueue.value;
  const count = queue ? queue.count.value : 0;
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
      {queue && count > 0 && <UploadPanel page={page} queue={queue} />}
    </>
  );
}
