import type { ComponentChildren } from "preact";

/** A column heading; `hidden` ones are read by screen readers only (the buttons column). */
export type Column = string | { hidden: string } | false;

/**
 * The tables of the settings pages (users, shares, trash, app passwords): a loading line while `rows` is
 * undefined or null, the empty message (when one is given) for no rows, else the table with its headings and the
 * rows `row` renders. Columns given as `false` are left out (e.g. the owner column for non-admins).
 */
export function DataTable<T>(props: {
  rows: readonly T[] | null | undefined;
  columns: readonly Column[];
  row: (item: T) => ComponentChildren;
  loading: string;
  empty?: { text: string; testId: string };
  class?: string;
  testId?: string;
}) {
  const { rows, empty } = props;
  if (!rows) return <p class="muted settings-loading">{props.loading}</p>;
  if (!rows.length && empty) return <p class="empty" data-testid={empty.testId}>{empty.text}</p>;
  return (
    <table class={props.class ?? "settings-table"} data-testid={props.testId}>
      <thead>
        <tr>
          {props.columns.map((c, i) =>
            c === false ? null : typeof c === "string" ? <th key={i}>{c}</th> : (
              <th key={i}>
                <span class="sr-only">{c.hidden}</span>
              </th>
            )
          )}
        </tr>
      </thead>
      <tbody>{rows.map(props.row)}</tbody>
    </table>
  );
}
