import { useRef } from "react";
import { FileUp, FolderUp } from "../../components/upload/icons.ts";
import { Icon } from "../../components/Icon.tsx";
import { PromptCard } from "../../components/PromptCard.tsx";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";
import { uploadPicked } from "../../client/upload/ui.ts";

// Preact's input attributes do not know webkitdirectory (Chromium, Firefox and Safari all support it).
const FOLDER_PICK: Record<string, boolean> = { webkitdirectory: true };

/** The upload prompt: pick files or a whole folder; the choice is uploaded into `dest`. */
export function UploadPrompt(props: PromptProps<{ dest: string }>) {
  const { t } = usePage();
  const files = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  const onChange = (e: Event) => {
    const input = e.currentTarget as HTMLInputElement;
    const picked = [...(input.files ?? [])];
    if (picked.length === 0) return;
    props.close();
    void uploadPicked(picked, props.props.dest);
  };
  return (
    <PromptCard
      title={t("upload.prompt.title")}
      testId="upload-prompt"
      actions={<button type="button" class="button flat" onClick={props.close}>{t("buttons.cancel")}</button>}
    >
      <p>{t("upload.prompt.message")}</p>
      <div class="upload-choices">
        <button
          type="button"
          class="upload-choice"
          autoFocus
          data-testid="upload-files"
          onClick={() => files.current?.click()}
        >
          <Icon node={FileUp} size={32} />
          <span>{t("upload.prompt.files")}</span>
        </button>
        <button
          type="button"
          class="upload-choice"
          data-testid="upload-folder"
          onClick={() => folder.current?.click()}
        >
          <Icon node={FolderUp} size={32} />
          <span>{t("upload.prompt.folder")}</span>
        </button>
      </div>
      <input ref={files} type="file" multiple hidden data-testid="upload-input-files" onChange={onChange} />
      <input
        ref={folder}
        type="file"
        multiple
        hidden
        {...FOLDER_PICK}
        data-testid="upload-input-folder"
        onChange={onChange}
      />
    </PromptCard>
  );
}
