import { PromptCard } from "../../components/PromptCard.tsx";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";

/**
 * The success prompt: a title ("Success" unless given), a message and OK. Used where a finished task deserves a
 * card rather than a one-second toast (a whole folder uploaded). It stays open across route changes.
 */
export function SuccessPrompt(props: PromptProps<{ title?: string; message?: string }>) {
  const { t } = usePage();
  return (
    <PromptCard
      title={props.props.title || t("prompts.success.title")}
      testId="success-prompt"
      actions={
        <button type="button" class="button" autoFocus onClick={props.close}>{t("buttons.ok")}</button>
      }
    >
      {props.props.message && <p>{props.props.message}</p>}
    </PromptCard>
  );
}
