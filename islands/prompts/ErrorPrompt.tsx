import { PromptCard } from "../../components/PromptCard.tsx";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";

/** The error prompt: "Something went wrong" and a message. */
export function ErrorPrompt(props: PromptProps<{ message?: string }>) {
  const { t } = usePage();
  return (
    <PromptCard
      title={t("prompts.error.title")}
      testId="error-prompt"
      actions={
        <button type="button" class="button" autoFocus onClick={props.close}>{t("buttons.ok")}</button>
      }
    >
      {props.props.message && <p>{props.props.message}</p>}
    </PromptCard>
  );
}
