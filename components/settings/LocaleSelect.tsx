import { LOCALE_NAMES, LOCALES } from "../../lib/i18n.ts";

/** The language picker: the 23 locales by native name; `emptyLabel` adds "" (browser default) first. */
export function LocaleSelect(
  props: { value: string; onChange: (v: string) => void; emptyLabel?: string; id?: string },
) {
  return (
    <select
      id={props.id}
      class="input"
      name="locale"
      value={props.value}
      onChange={(e) => props.onChange((e.currentTarget as HTMLSelectElement).value)}
    >
      {props.emptyLabel !== undefined && <option value="">{props.emptyLabel}</option>}
      {LOCALES.map((l) => <option key={l} value={l}>{LOCALE_NAMES[l]}</option>)}
    </select>
  );
}
