import { useEffect, useRef, useState } from "react";
import { island } from "../framework/island.tsx";
import { UPLOAD_CSS } from "../components/upload/styles.ts";
import { usePage } from "../client/hooks.ts";
import { onFilesRoute } from "../client/router.ts";
import { currentPath } from "../client/state.ts";
import { canUpload, uploadPicked } from "../client/upload/ui.ts";
import { loadedQueue } from "../client/upload/ui_queue.ts";
import { countInterrupted } from "../client/upload/resume.ts";
import { UploadPanel } from "./upload/UploadPanel.tsx";

/** The upload records in localStorage (none where storage is denied). */
function interruptedCount(): number {
  let n = 0;
  try {
    n = countInterrupted(globalThis.localStorage);
  } catch {
    // Storage access denied (a sandboxed frame, privacy settings): nothing to offer.
  }
  return n;
}

/**
 * The upload panel and the resume banner, drawn above every page of the main layout: client-side navigation
 * keeps this island mounted, so the panel stays while its uploads go on. After a reload that cut uploads short,
 * the files page offers to pick the same files again; the queue resumes them where they stopped.
 */
function UploadsImpl() {
  const page = usePage();
  const { t } = page;
  const queue = loadedQueue.value;
  const count = queue ? queue.count.value : 0;
  const [interrupted, setInterrupted] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    setInterrupted(interruptedCount());
  }, []);
  const onPick = (e: Event) => {
    const picked = [...((e.currentTarget as HTMLInputElement).files ?? [])];
    if (picked.length === 0) return;
    setInterrupted(0);
    void uploadPicked(picked, currentPath.value);
  };
  const banner = interrupted > 0 && count === 0 && onFilesRoute.value && canUpload(page.user);
  return (
    <>
      {(banner || count > 0) && <style>{UPLOAD_CSS}</style>}
      {queue && count > 0 && <UploadPanel page={page} queue={queue} />}
      {banner && (
        <div class="upload-resume" role="status" data-testid="upload-resume">
          <span>{t("upload.resume.message", { count: String(interrupted) })}</span>
          <button type="button" class="button" onClick={() => input.current?.click()}>
            {t("upload.resume.pick")}
          </button>
          <button type="button" class="button flat" onClick={() => setInterrupted(0)}>
            {t("buttons.close")}
          </button>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            data-testid="upload-resume-input"
            onChange={onPick}
          />
        </div>
      )}
    </>
  );
}

/** Upload panel and resume banner (an overlay island of the files and settings pages). */
export const Uploads = island(UploadsImpl);
