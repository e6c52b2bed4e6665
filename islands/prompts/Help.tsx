import { PromptCard } from "../../components/PromptCard.tsx";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";

const SHORTCUTS: [string, string][] = [
  ["F1", "help.f1"],
  ["F2", "help.f2"],
  ["DEL", "help.del"],
  ["ESC", "help.esc"],
  ["CTRL + S", "help.ctrlS"],
  ["CTRL + F", "help.ctrlF"],
  ["CTRL + C / X / V", "help.ctrlCXV"],
  ["CTRL + A", "help.ctrlA"],
  ["CTRL + Click", "help.ctrlClick"],
  ["Click", "help.click"],
  ["Double click", "help.doubleClick"],
];

/** The help card: keyboard shortcuts. */
export function HelpPrompt(props: PromptProps) {
  const { t } = usePage();
  return (
    <PromptCard
      title={t("help.title")}
      testId="help"
      actions={
        <button type="button" class="button" autoFocus onClick={props.close}>{t("buttons.ok")}</button>
      }
    >
      <dl class="shortcuts">
        {SHORTCUTS.map(([key, text]) => (
          <div key={key}>
            <dt>
              <kbd>
                {key === "Click"
                  ? t("help.keyClick")
                  : key === "Double click"
                  ? t("help.keyDoubleClick")
                  : key}
              </kbd>
            </dt>
            <dd>{t(text)}</dd>
          </div>
        ))}
      </dl>
    </PromptCard>
  );
}
