import { PromptCard } from "../../components/PromptCard.tsx";
import { isolate } from "../../lib/bidi.ts";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";

/** What every conflict prompt is told: the conflicting names and the name of the destination folder. */
interface ConflictProps {
  names: string[];
  folder: string;
}

/** One button of a conflict prompt; the first one given `safe` takes the focus. */
interface Choice {
  label: string;
  testId: string;
  run: () => void;
  safe?: boolean;
  danger?: boolean;
}

/**
 * The card of a name conflict: which file(s) exist in which folder (a list when several), then the choices. The
 * focus starts on the safe choice, so Enter never overwrites by accident; Escape cancels.
 */
function ConflictCard(props: ConflictProps & { testId: string; close: () => void; choices: Choice[] }) {
  const { t } = usePage();
  const { names, folder } = props;
  const run = (fn: () => void) => () => {
    props.close();
    fn();
  };
  return (
    <PromptCard
      title={t("prompts.replace.title")}
      testId={props.testId}
      actions={
        <>
          <button type="button" class="button flat" onClick={props.close}>{t("buttons.cancel")}</button>
          {props.choices.map((c) => (
            <button
              key={c.testId}
              type="button"
              class={c.danger ? "button danger" : c.safe ? "button" : "button flat"}
              autoFocus={c.safe}
              data-testid={c.testId}
              onClick={run(c.run)}
            >
              {c.label}
            </button>
          ))}
        </>
      }
    >
      {names.length === 1
        ? (
          <p data-testid="conflict-message">
            {t("prompts.conflict.one", {
              name: isolate(names[0]),
              folder: isolate(folder),
            })}
          </p>
        )
        : (
          <>
            <p data-testid="conflict-message">
              {t("prompts.conflict.many", { count: names.length, folder: isolate(folder) })}
            </p>
            <ul class="conflict-list" data-testid="conflict-list">
              {names.map((n) => (
                <li key={n}>
                  <bdi>{n}</bdi>
                </li>
              ))}
            </ul>
          </>
        )}
    </PromptCard>
  );
}

/** The replace prompt (uploads): skip the conflicting items (focused), or replace them. */
export function ReplacePrompt(
  props: PromptProps<ConflictProps & { onContinue?: () => void; onReplace: () => void }>,
) {
  const { t } = usePage();
  const p = props.props;
  const choices: Choice[] = [];
  if (p.onContinue) {
    choices.push({ label: t("buttons.skip"), testId: "conflict-skip", run: p.onContinue, safe: true });
  }
  choices.push({ label: t("buttons.replace"), testId: "conflict-replace", run: p.onReplace, danger: true });
  return (
    <ConflictCard names={p.names} folder={p.folder} testId="replace" close={props.close} choices={choices} />
  );
}

/** The replace-rename prompt (copy/move conflicts): keep both (focused), skip the conflicting items, or replace. */
export function ReplaceRenamePrompt(
  props: PromptProps<ConflictProps & { onRename: () => void; onSkip?: () => void; onReplace: () => void }>,
) {
  const { t } = usePage();
  const p = props.props;
  const choices: Choice[] = [{
    label: t("buttons.keepBoth"),
    testId: "conflict-rename",
    run: p.onRename,
    safe: true,
  }];
  if (p.onSkip) choices.push({ label: t("buttons.skip"), testId: "conflict-skip", run: p.onSkip });
  choices.push({ label: t("buttons.replace"), testId: "conflict-replace", run: p.onReplace, danger: true });
  return (
    <ConflictCard
      names={p.names}
      folder={p.folder}
      testId="replace-rename"
      close={props.close}
      choices={choices}
    />
  );
}
