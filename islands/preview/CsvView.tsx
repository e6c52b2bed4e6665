import { useEffect, useState } from "preact/hooks";
import { getTextBytes } from "../../client/api/mod.ts";
import { CSV_MAX_ROWS, decodeText, parseCsv } from "../../client/preview/csv.ts";
import type { CsvTable as Table } from "../../client/preview/csv.ts";
import { CsvTable } from "../../components/preview/CsvTable.tsx";

/** Props of CsvView. */
export interface CsvViewProps {
  path: string;
  /** The text as edited (after a switch from the source view); when absent the file's bytes are fetched. */
  text?: string;
  /** The text the server sent with the resource, used when raw bytes cannot be had (read-only files). */
  fallback?: string;
  t: (key: string, vars?: Record<string, string | number>) => string;
}

async function loadCsvText(path: string): Promise<string | null> {
  const bytes = await getTextBytes(path);
  return bytes && decodeText(bytes);
}

/** A CSV file as a table, parsed with quoted fields, embedded newlines and the delimiter guessed. */
export function CsvView(props: CsvViewProps) {
  const [table, setTable] = useState<Table | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    const source = props.text !== undefined
      ? Promise.resolve(props.text)
      : loadCsvText(props.path).then((t) => t ?? props.fallback ?? "");
    source.then((text) => live && setTable(parseCsv(text)), () => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [props.path, props.text]);
  if (failed) return <p class="view-message" role="alert">{props.t("preview.loadFailed")}</p>;
  if (!table) return <p class="view-message" aria-busy="true">{props.t("preview.loading")}</p>;
  return (
    <CsvTable
      rows={table.rows}
      label={props.path.split("/").pop() ?? ""}
      truncatedNote={table.truncated ? props.t("preview.csvTruncated", { count: CSV_MAX_ROWS }) : undefined}
    />
  );
}
