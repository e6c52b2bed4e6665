/** Props of CsvTable. */
export interface CsvTableProps {
  rows: string[][];
  /** Rows left out beyond the limit; the caption says so. */
  truncatedNote?: string;
  label: string;
}

/** A CSV file as a table: the first row as header, ragged rows padded to the widest row. */
export function CsvTable(props: CsvTableProps) {
  const [head, ...body] = props.rows;
  const width = props.rows.reduce((m, r) => Math.max(m, r.length), 0);
  const pad = (r: string[]) => r.length < width ? [...r, ...Array(width - r.length).fill("")] : r;
  return (
    <div class="csv-view" data-testid="csv-table">
      <table class="csv-table" aria-label={props.label}>
        {head && (
          <thead>
            <tr>
              <th class="csv-rownum" scope="col" />
              {pad(head).map((cell, i) => <th key={i} scope="col">{cell}</th>)}
            </tr>
          </thead>
        )}
        <tbody>
          {body.map((row, r) => (
            <tr key={r}>
              <td class="csv-rownum">{r + 1}</td>
              {pad(row).map((cell, i) => <td key={i}>{cell}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
      {props.truncatedNote && <p class="csv-note" role="note">{props.truncatedNote}</p>}
    </div>
  );
}
