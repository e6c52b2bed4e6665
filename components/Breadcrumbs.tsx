import { Icon } from "./Icon.tsx";
import { ChevronRight, House } from "./icons.ts";

/** Only this many trailing segments are shown; earlier ones collapse into an ellipsis. */
export const BREADCRUMB_LIMIT = 4;

/** One link of the trail. */
export interface Crumb {
  name: string;
  url: string;
}

/** Props of Breadcrumbs. */
export interface BreadcrumbsProps {
  /** The folder's vpath, decoded ("/a b/c/"). */
  path: string;
  /** Builds the URL of a folder vpath. */
  urlOf: (path: string) => string;
  t: (key: string) => string;
  /** Render segments as plain text (no links). */
  noLinks?: boolean;
}

/** The segments of a vpath with the URL of each prefix, last {@link BREADCRUMB_LIMIT} kept. */
export function crumbsOf(path: string, urlOf: (p: string) => string): { crumbs: Crumb[]; hidden: number } {
  const segs = path.split("/").filter(Boolean);
  const all = segs.map((name, i) => ({ name, url: urlOf("/" + segs.slice(0, i + 1).join("/") + "/") }));
  const hidden = Math.max(0, all.length - BREADCRUMB_LIMIT);
  return { crumbs: all.slice(hidden), hidden };
}

/** The breadcrumb bar: home, an ellipsis for hidden levels, then the last segments. */
export function Breadcrumbs(props: BreadcrumbsProps) {
  const { crumbs, hidden } = crumbsOf(props.path, props.urlOf);
  const last = crumbs.length - 1;
  return (
    <nav class="breadcrumbs" aria-label={props.t("files.breadcrumbs")}>
      <ol>
        <li>
          <a
            href={props.urlOf("/")}
            title={props.t("sidebar.myFiles")}
            aria-label={props.t("sidebar.myFiles")}
          >
            <Icon node={House} size={18} />
          </a>
        </li>
        {hidden > 0 && (
          <li aria-hidden="true">
            <Icon node={ChevronRight} size={16} class="sep" />
            <span class="ellipsis">…</span>
          </li>
        )}
        {crumbs.map((c, i) => (
          <li key={c.url}>
            <Icon node={ChevronRight} size={16} class="sep" />
            {props.noLinks || i === last
              ? (
                <span aria-current={i === last ? "page" : undefined}>
                  <bdi>{c.name}</bdi>
                </span>
              )
              : (
                <a href={c.url}>
                  <bdi>{c.name}</bdi>
                </a>
              )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
