import { useEffect, useRef, useState } from "preact/hooks";
import { FileText, Image, Music, Search, Video, X } from "../../components/icons.ts";
import type { IconNode } from "lucide";
import { filesUrl } from "../../client/api.ts";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";
import { isPlainClick, navigate } from "../../client/router.ts";
import {
  buildQuery,
  search,
  SEARCH_MORE_THRESHOLD_PX,
  SEARCH_PAGE,
  SEARCH_TYPES,
} from "../../client/search.ts";
import type { SearchResult } from "../../client/search.ts";
import { currentPath } from "../../client/state.ts";
import { errorMessage } from "../../client/toasts.ts";
import { Icon } from "../../components/Icon.tsx";
import { SearchResultList } from "../../components/search/SearchResultList.tsx";
import type { SearchResultRow } from "../../components/search/SearchResultList.tsx";
import { SEARCH_CSS } from "../../components/search/styles.ts";

const TYPE_ICONS: Record<string, IconNode> = { image: Image, audio: Music, pdf: FileText, video: Video };

type Status = "idle" | "searching" | "done" | "error";

/** The search overlay (prompt "search"): text, type filters, results streamed in as the server finds them. */
export function SearchOverlay(props: PromptProps) {
  const { t } = usePage();
  const base = currentPath.value.replace(/[^/]*$/, "") || "/";
  const [text, setText] = useState("");
  const [type, setType] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>("idle");
  const [error, setError] = useState("");
  const [results, setResults] = useState<SearchResult[]>([]);
  const [shown, setShown] = useState(SEARCH_PAGE);
  const root = useRef<HTMLDivElement>(null);
  const running = useRef<AbortController | null>(null);
  const buffer = useRef<SearchResult[]>([]);
  const frame = useRef(0);

  // Hits arrive one by one; render them at most once per frame.
  const flush = () => {
    frame.current = 0;
    setResults([...buffer.current]);
  };

  async function run(query: string) {
    running.current?.abort();
    const ctrl = new AbortController();
    running.current = ctrl;
    buffer.current = [];
    setResults([]);
    setShown(SEARCH_PAGE);
    setStatus("searching");
    try {
      await search(base, query, {
        signal: ctrl.signal,
        onResult: (r) => {
          buffer.current.push(r);
          frame.current ||= requestAnimationFrame(flush);
        },
      });
      if (ctrl.signal.aborted) return;
      cancelAnimationFrame(frame.current);
      flush();
      setStatus("done");
    } catch (err) {
      if (ctrl.signal.aborted) return;
      setError(errorMessage(err));
      setStatus("error");
    }
  }

  function submit(nextType = type) {
    const query = buildQuery(text, nextType);
    if (query !== null) void run(query);
  }

  function toggleType(word: string) {
    const next = type === word ? null : word;
    setType(next);
    if (next !== null || text.trim()) submit(next);
  }

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        props.close();
      }
    };
    // A click outside closes the overlay (it has no backdrop).
    const onDown = (e: PointerEvent) => {
      const dialog = root.current?.closest("dialog");
      if (dialog && !dialog.contains(e.target as Node)) props.close();
    };
    addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onDown);
    return () => {
      removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onDown);
      running.current?.abort();
      cancelAnimationFrame(frame.current);
    };
  }, []);

  function onScroll(e: Event) {
    const el = e.currentTarget as HTMLElement;
    if (
      shown < results.length && el.scrollHeight - el.scrollTop - el.clientHeight <= SEARCH_MORE_THRESHOLD_PX
    ) {
      setShown((n) => n + SEARCH_PAGE);
    }
  }

  const rows: SearchResultRow[] = results.slice(0, shown).map((r) => ({
    path: r.fullPath,
    label: r.path,
    dir: r.dir,
    href: filesUrl(r.fullPath),
  }));
  const open = (row: SearchResultRow, e: MouseEvent) => {
    if (!isPlainClick(e)) return;
    e.preventDefault();
    props.close();
    navigate(row.href);
  };

  let statusText = "";
  if (status === "idle") statusText = t("search.hint");
  else if (status === "searching") statusText = t("search.searching", { count: results.length });
  else if (status === "error") statusText = error;
  else statusText = results.length ? t("search.results", { count: results.length }) : t("search.noResults");

  return (
    <div class="search-overlay" ref={root} data-testid="search" data-status={status}>
      <style>{SEARCH_CSS}</style>
      <form
        class="search-form"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) submit();
        }}
      >
        <Icon node={Search} />
        <input
          type="search"
          autoFocus
          value={text}
          placeholder={t("search.placeholder")}
          aria-label={t("search.label")}
          data-testid="search-input"
          onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)}
        />
        <button
          type="button"
          class="action"
          aria-label={t("search.close")}
          title={t("search.close")}
          onClick={props.close}
        >
          <Icon node={X} />
        </button>
      </form>
      <div class="search-types" role="group" aria-label={t("search.types")}>
        {SEARCH_TYPES.map((s) => (
          <button
            key={s.word}
            type="button"
            class="search-type"
            aria-pressed={type === s.word}
            data-testid={`search-type-${s.word}`}
            onClick={() => toggleType(s.word)}
          >
            <Icon node={TYPE_ICONS[s.word]} size={16} />
            {t(s.labelKey)}
          </button>
        ))}
      </div>
      <p class="search-status" role="status" aria-live="polite" data-testid="search-status">{statusText}</p>
      <div class="search-scroll" onScroll={onScroll}>
        {rows.length > 0 && <SearchResultList rows={rows} onOpen={open} label={t("search.label")} />}
      </div>
    </div>
  );
}
