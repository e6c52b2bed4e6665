import { File, Folder } from "../../components/icons.ts";
import { Icon } from "../Icon.tsx";

/** One row of the result list. */
export interface SearchResultRow {
  /** Full vpath (folders end with "/"). */
  path: string;
  /** What is shown: the path relative to the searched folder. */
  label: string;
  dir: boolean;
  href: string;
}

/** Props of SearchResultList. */
export interface SearchResultListProps {
  rows: SearchResultRow[];
  onOpen: (row: SearchResultRow, e: MouseEvent) => void;
  label: string;
}

/** The search results: a folder or file icon and the relative path; each entry opens its file or folder. */
export function SearchResultList(props: SearchResultListProps) {
  return (
    <ul class="search-list" aria-label={props.label} data-testid="search-results">
      {props.rows.map((r) => (
        <li key={r.path}>
          <a
            href={r.href}
            class="search-hit"
            data-dir={r.dir ? "true" : "false"}
            onClick={(e) => props.onOpen(r, e)}
          >
            <Icon node={r.dir ? Folder : File} size={18} class={r.dir ? "search-icon-dir" : undefined} />
            <span class="search-path">{r.label}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
