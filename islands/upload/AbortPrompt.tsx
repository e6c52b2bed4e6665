import { enterConfirms, PromptCard } from "../../components/PromptCard.tsx";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";
import { loadedQueue } from "../../client/upload/ui_queue.ts";

/** Confirms aborting every upload (filebrowser's 'Are you sure you want to abort?'). */
export function AbortPrompt(props: PromptProps<Record<string, never>>) {
  const { t } = usePage();
  const confirm = () => {
    props.close();
    void loadedQueue.value?.abortAll();
  };
  return (
    <PromptCard
      title={t("upload.abort.title")}
      testId="upload-abort"
      onKeyDown={enterConfirms(confirm)}
      actions={
        <>
          <button type="button" class="button flat" onClick={props.close}>{t("buttons.cancel")}</button>
          <button
            type="button"
            class="button danger"
            autoFocus
            data-testid="upload-abort-confirm"
            onClick={confirm}
          >
            {t("upload.abort.confirm")}
          </button>
        </>
      }
    >
      <p>{t("upload.abort.message")}</p>
    </PromptCard>
  );
}
