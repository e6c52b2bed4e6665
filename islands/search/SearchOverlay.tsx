import { useRef, useState } from "preact/hooks";
import { Search, X } from "../../components/icons.ts";
import { nameOf } from "../../client/search_details.ts";
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
import { MAX_SEARCH_LENGTH, MAX_SEARCH_TERMS, searchQueryFits } from "../../lib/search/grammar.ts";
import { Icon } from "../../components/Icon.tsx";
import type { SearchResultRow } from "../../components/search/SearchResultList.tsx";
import { SearchFilters } from "../../components/search/SearchFilters.tsx";
import { SEARCH_CSS } from "../../components/search/styles.ts";
import { SearchResults } from "./SearchResults.tsx";
import { useOverlayFrame } from "./use_overlay_frame.ts";

function typeLabel(word: string): string {
  return SEARCH_TYPES.find((s) => s.word === word)?.labelKey ?? word;
}

type Status = "idle" | "searching" | "done" | "error";

/** The search overlay (prompt "search"): text, type filters, results streamed in as the server finds them. */
export function SearchOverlay(props: PromptProps) {
  const { t } = usePage();
  const here = currentPath.value.replace(/[^/]*$/, "") || "/";
  const [fromRoot, setFromRoot] = useState(false);
  const base = fromRoot ? "/" : here;
  const [text, setText] = useState("");
  const [type, setType] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>("idle");
  const [error, setError] = useState("");
  const [truncated, setTruncated] = useState(false);
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

  async function run(query: string, from = base) {
    running.current?.abort();
    const ctrl = new AbortController();
    running.current = ctrl;
    buffer.current = [];
    setResults([]);
    setTruncated(false);
    setShown(SEARCH_PAGE);
    setStatus("searching");
    try {
      await search(from, query, {
        signal: ctrl.signal,
        onTruncated: () => setTruncated(true),
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

  function submit(nextType = type, from = base) {
    const query = buildQuery(text, nextType);
    if (query === null) return;
    if (!searchQueryFits(query)) {
      // The server would refuse it (400): say why, in the user's language.
      running.current?.abort();
      setResults([]);
      setError(t("search.tooLong", { terms: MAX_SEARCH_TERMS, chars: MAX_SEARCH_LENGTH }));
      setStatus("error");
      return;
    }
    void run(query, from);
  }

  function toggleScope() {
    const next = !fromRoot;
    setFromRoot(next);
    if (status !== "idle") submit(type, next ? "/" : here);
  }

  function toggleType(word: string) {
    const next = type === word ? null : word;
    setType(next);
    if (next !== null || text.trim()) submit(next);
  }

  useOverlayFrame(root, props.close, () => {
    running.current?.abort();
    cancelAnimationFrame(frame.current);
  });

  function onScroll(e: Event) {
    const el = e.currentTarget as HTMLElement;
    if (
      shown < results.length && el.scrollHeight - el.scrollTop - el.clientHeight <= SEARCH_MORE_THRESHOLD_PX
    ) {
      setShown((n) => n + SEARCH_PAGE);
    }
  }

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
  if (status === "done" && truncated) statusText += ` ${t("search.truncated")}`;

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
        {type && (
          <button
            type="button"
            class="search-chip"
            data-testid="search-chip"
            aria-label={t("search.removeFilter", { type: t(typeLabel(type)) })}
            title={t("search.removeFilter", { type: t(typeLabel(type)) })}
            onClick={() => toggleType(type)}
          >
            {t(typeLabel(type))}
            <Icon node={X} size={14} />
          </button>
        )}
        <input
          type="search"
          autoFocus
          value={text}
          placeholder={t("search.placeholder")}
          aria-label={t("search.label")}
          data-testid="search-input"
          onKeyDown={(e) => {
            if (e.key !== "ArrowDown") return;
            const first = root.current?.querySelector<HTMLElement>(".search-hit");
            if (!first) return;
            e.preventDefault();
            first.focus();
          }}
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
      <SearchFilters
        types={SEARCH_TYPES}
        type={type}
        onType={toggleType}
        here={nameOf(here)}
        fromRoot={fromRoot}
        onScope={toggleScope}
        t={t}
      />
      <p class="search-status" role="status" aria-live="polite" data-testid="search-status">{statusText}</p>
      <div class="search-scroll" onScroll={onScroll}>
        <SearchResults
          results={results.slice(0, shown)}
          base={base}
          onOpen={open}
          onLeave={() => root.current?.querySelector<HTMLElement>("input")?.focus()}
        />
      </div>
    </div>
  );
}
