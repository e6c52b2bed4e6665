import { useEffect, useMemo, useReducer, useRef } from "preact/hooks";
import { filesUrl } from "../../client/page.ts";
import { getResource, thumbUrl } from "../../client/api/mod.ts";
import { usePage } from "../../client/hooks.ts";
import type { SearchResult } from "../../client/search.ts";
import { folderOf, nameOf, ResultDetailsCache } from "../../client/search_details.ts";
import { SearchResultList } from "../../components/search/SearchResultList.tsx";
import type { SearchResultRow } from "../../components/search/SearchResultList.tsx";
import { formatDate, formatRelative, formatSize } from "../../lib/format.ts";

/** Props of SearchResults. */
export interface SearchResultsProps {
  results: SearchResult[];
  /** The searched folder (vpath ending with "/"). */
  base: string;
  onOpen: (row: SearchResultRow, e: MouseEvent) => void;
  /** Focus goes back to the search field (ArrowUp on the first result). */
  onLeave: () => void;
}

/** The rendered results: details loaded as rows come into view, arrow keys move between them. */
export function SearchResults(props: SearchResultsProps) {
  const { t, locale } = usePage();
  const [, bump] = useReducer((n: number, _: void) => n + 1, 0);
  const list = useRef<HTMLDivElement>(null);
  // A new overlay (or a new scope) starts with an empty cache; the same folders are not asked for twice.
  const cache = useMemo(() => new ResultDetailsCache((dir) => getResource(dir), () => bump()), []);

  useEffect(() => {
    const root = list.current;
    if (!root || typeof IntersectionObserver === "undefined") return;
    const seen = new IntersectionObserver((entries) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        cache.want((e.target as HTMLElement).dataset.path!);
        seen.unobserve(e.target);
      }
    }, { root: root.parentElement, rootMargin: "200px 0px" });
    root.querySelectorAll("li[data-path]").forEach((li) => seen.observe(li));
    return () => seen.disconnect();
  }, [props.results]);

  const prefix = props.base.endsWith("/") ? props.base : props.base + "/";
  const rows: SearchResultRow[] = props.results.map((r) => {
    const d = cache.get(r.fullPath);
    const folder = folderOf(r.fullPath);
    const row: SearchResultRow = {
      path: r.fullPath,
      label: r.path,
      name: nameOf(r.fullPath),
      folder: folder.startsWith(prefix) ? folder.slice(prefix.length).replace(/\/$/, "") : folder,
      dir: r.dir,
      href: filesUrl(r.fullPath),
    };
    if (d) {
      if (!r.dir) row.size = formatSize(d.size, locale);
      row.date = formatRelative(d.modified, { locale });
      row.dateTitle = formatDate(d.modified, locale);
      if (d.type === "image") row.thumb = thumbUrl(d);
    }
    return row;
  });

  function onKeyDown(e: KeyboardEvent) {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    const hits = [...list.current!.querySelectorAll<HTMLElement>(".search-hit")];
    const at = hits.indexOf(document.activeElement as HTMLElement);
    if (at < 0) return;
    e.preventDefault();
    if (e.key === "ArrowUp" && at === 0) props.onLeave();
    else hits[Math.max(0, Math.min(hits.length - 1, at + (e.key === "ArrowDown" ? 1 : -1)))].focus();
  }

  return (
    <div ref={list} onKeyDown={onKeyDown}>
      {rows.length > 0 && <SearchResultList rows={rows} onOpen={props.onOpen} label={t("search.label")} />}
    </div>
  );
}
