import { DropZone } from "../../components/upload/DropZone.tsx";
import { UPLOAD_CSS } from "../../components/upload/styles.ts";
import { usePage } from "../../client/hooks.ts";
import { canUpload } from "../../client/upload/ui.ts";
import { useFileDrop } from "./use_file_drop.ts";
import "./mod.ts";

/**
 * Uploads on the files page: the drop zone while files are dragged over it. The upload panel is the Uploads
 * overlay island, which stays mounted when the page changes client-side.
 */
export function UploadLayer() {
  const page = usePage();
  const { t } = page;
  const drop = useFileDrop({ enabled: canUpload(page.user) });
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
    </>
  );
}
