import type { IconNode } from "lucide";
import { FileText, Image, Music, Video } from "../icons.ts";
import { Icon } from "../Icon.tsx";

const TYPE_ICONS: Record<string, IconNode> = { image: Image, audio: Music, pdf: FileText, video: Video };

/** Props of SearchFilters. */
export interface SearchFiltersProps {
  /** The type filters: query word and translation key. */
  types: readonly { word: string; labelKey: string }[];
  type: string | null;
  onType: (word: string) => void;
  /** Name of the folder the overlay was opened in ("" at the root). */
  here: string;
  fromRoot: boolean;
  onScope: () => void;
  t: (key: string, vars?: Record<string, string | number>) => string;
}

/** The scope line ("In Documents and below" and the switch to all files) and the type filter buttons. */
export function SearchFilters(props: SearchFiltersProps) {
  const { t } = props;
  return (
    <>
      <p class="search-scope" data-testid="search-scope">
        <span>
          {!props.here || props.fromRoot ? t("search.inAll") : t("search.inFolder", { folder: props.here })}
        </span>
        {props.here && (
          <button
            type="button"
            class="search-scope-switch"
            data-testid="search-scope-switch"
            onClick={props.onScope}
          >
            {props.fromRoot ? t("search.onlyHere", { folder: props.here }) : t("search.everywhere")}
          </button>
        )}
      </p>
      <div class="search-types" role="group" aria-label={t("search.types")}>
        {props.types.map((s) => (
          <button
            key={s.word}
            type="button"
            class="search-type"
            aria-pressed={props.type === s.word}
            data-testid={`search-type-${s.word}`}
            onClick={() => props.onType(s.word)}
          >
            <Icon node={TYPE_ICONS[s.word]} size={16} />
            {t(s.labelKey)}
          </button>
        ))}
      </div>
    </>
  );
}
