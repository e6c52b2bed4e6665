import { newRule, ruleText, withRuleText } from "../../client/settings.ts";
import type { Rule } from "../../lib/types.ts";

/** Edits a list of allow/deny rules (path or regular expression); Enter in a field never submits the form. */
export function RulesEditor(
  props: { rules: Rule[]; onChange: (rules: Rule[]) => void; t: (k: string) => string },
) {
  const { rules, t } = props;
  const put = (i: number, rule: Rule) => props.onChange(rules.map((r, j) => j === i ? rule : r));
  return (
    <div class="rules-editor" data-testid="rules">
      {rules.map((rule, i) => (
        <div class="rule-row" key={i} data-index={i}>
          <select
            class="input"
            aria-label={t("settings.rules.kind")}
            value={rule.allow ? "allow" : "deny"}
            onChange={(e) =>
              put(i, { ...rule, allow: (e.currentTarget as HTMLSelectElement).value === "allow" })}
          >
            <option value="allow">{t("settings.rules.allow")}</option>
            <option value="deny">{t("settings.rules.deny")}</option>
          </select>
          <label class="settings-check">
            <input
              type="checkbox"
              checked={rule.regex}
              onChange={(e) =>
                put(
                  i,
                  withRuleText(
                    { ...rule, regex: (e.currentTarget as HTMLInputElement).checked },
                    ruleText(rule),
                  ),
                )}
            />
            <span>{t("settings.rules.regex")}</span>
          </label>
          <input
            class="input"
            type="text"
            aria-label={rule.regex ? t("settings.rules.pattern") : t("settings.rules.path")}
            placeholder={rule.regex ? "^.*\\.tmp$" : "/private"}
            value={ruleText(rule)}
            onKeyDown={(e) => {
              if (e.key === "Enter") e.preventDefault();
            }}
            onInput={(e) => put(i, withRuleText(rule, (e.currentTarget as HTMLInputElement).value))}
          />
          <button
            type="button"
            class="button outline"
            onClick={() => props.onChange(rules.filter((_, j) => j !== i))}
          >
            {t("settings.rules.remove")}
          </button>
        </div>
      ))}
      <button type="button" class="button flat" onClick={() => props.onChange([...rules, newRule()])}>
        {t("settings.rules.add")}
      </button>
    </div>
  );
}
