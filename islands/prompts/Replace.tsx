import { enterConfirms, PromptCard } from "../../components/PromptCard.tsx";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";

/** The replace prompt (uploads): cancel, continue without the conflicting items, or replace them. */
export function ReplacePrompt(props: PromptProps<{ onContinue?: () => void; onReplace: () => void }>) {
  const { t } = usePage();
  const run = (fn?: () => void) => () => {
    props.close();
    fn?.();
  };
  return (
    <PromptCard
      title={t("prompts.replace.title")}
      testId="replace"
      onKeyDown={enterConfirms(run(props.props.onReplace))}
      actions={
        <>
          <button type="button" class="button flat" onClick={props.close}>{t("buttons.cancel")}</button>
          {props.props.onContinue && (
            <button type="button" class="button flat" onClick={run(props.props.onContinue)}>
              {t("buttons.continue")}
            </button>
          )}
          <button type="button" class="button danger" autoFocus onClick={run(props.props.onReplace)}>
            {t("buttons.replace")}
          </button>
        </>
      }
    >
      <p>{t("prompts.replace.message")}</p>
    </PromptCard>
  );
}

/** The replace-rename prompt (copy/move conflicts): cancel, keep both (rename), or overwrite. */
export function ReplaceRenamePrompt(props: PromptProps<{ onRename: () => void; onReplace: () => void }>) {
  const { t } = usePage();
  const run = (fn: () => void) => () => {
    props.close();
    fn();
  };
  return (
    <PromptCard
      title={t("prompts.replace.title")}
      testId="replace-rename"
      onKeyDown={enterConfirms(run(props.props.onReplace))}
      actions={
        <>
          <button type="button" class="button flat" onClick={props.close}>{t("buttons.cancel")}</button>
          <button
            type="button"
            class="button flat"
            data-testid="conflict-rename"
            onClick={run(props.props.onRename)}
          >
            {t("buttons.rename")}
          </button>
          <button
            type="button"
            class="button danger"
            autoFocus
            data-testid="conflict-replace"
            onClick={run(props.props.onReplace)}
          >
            {t("buttons.replace")}
          </button>
        </>
      }
    >
      <p>{t("prompts.replaceRename.message")}</p>
    </PromptCard>
  );
}
