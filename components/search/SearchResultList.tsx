import { fileIconOf } from "../file_icon.ts";
import { Icon } from "../Icon.tsx";

/** One row of the result list. */
export interface SearchResultRow {
  /** Full vpath (folders end with "/"). */
  path: string;
  /** The path relative to the searched folder. */
  label: string;
  /** The entry's own name. */
  name: string;
  /** Its folder, relative to the searched folder ("" when it is the searched folder itself). */
  folder: string;
  dir: boolean;
  href: string;
  /** Size and date once known. */
  size?: string;
  date?: string;
  dateTitle?: string;
  /** Thumbnail URL of an image. */
  thumb?: string;
}

/** Props of SearchResultList. */
export interface SearchResultListProps {
  rows: SearchResultRow[];
  onOpen: (row: SearchResultRow, e: MouseEvent) => void;
  label: string;
}

/** The search results: icon or thumbnail, name, folder, size and date; each entry opens its file or folder. */
export function SearchResultList(props: SearchResultListProps) {
  return (
    <ul class="search-list" aria-label={props.label} data-testid="search-results">
      {props.rows.map((r) => (
        <li key={r.path} data-path={r.path} data-rel={r.label}>
          <a
            href={r.href}
            class="search-hit"
            data-dir={r.dir ? "true" : "false"}
            onClick={(e) => props.onOpen(r, e)}
          >
            {r.thumb
              ? <img class="search-thumb" src={r.thumb} alt="" loading="lazy" width={32} height={32} />
              : (
                <span class="search-thumb">
                  <Icon
                    node={fileIconOf({ isDir: r.dir, name: r.name })}
                    size={18}
                    class={r.dir ? "search-icon-dir" : undefined}
                  />
                </span>
              )}
            <span class="search-text">
              <span class="search-name">{r.name}</span>
              {r.folder && <span class="search-folder">{r.folder}</span>}
            </span>
            <span class="search-meta">
              {r.size && <bdi class="search-size">{r.size}</bdi>}
              {r.date && <span class="search-date" title={r.dateTitle}>{r.date}</span>}
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}
