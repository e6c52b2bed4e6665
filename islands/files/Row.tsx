import { memo } from "react";
import { Icon } from "../../components/Icon.tsx";
import { Check } from "../../components/icons.ts";
import { fileIconOf } from "../../components/file_icon.ts";
import { thumbUrl } from "../../client/api/mod.ts";
import { Thumb } from "./Thumb.tsx";
import { focusIndex, selection } from "../../client/state.ts";
import { folderKey, folderSizes } from "../../client/folder_sizes.ts";
import { formatDate, formatRelative, formatSize } from "../../lib/format.ts";
import type { Resource } from "../../lib/types.ts";
import { useSelector } from "./use_selector.ts";

/** The icon of an item (the shared rule of components/file_icon.ts). */
export const iconOf = fileIconOf;

/** Props of Row. */
export interface RowProps {
  item: Resource;
  index: number;
  total: number;
  mode: string;
  locale: string;
  /** Absolute dates instead of relative ones (user preference). */
  absoluteDates: boolean;
  thumbs: boolean;
  draggable: boolean;
  /** Text for broken links (their size column). */
  invalidLinkText: string;
  /**
   * Give dates their full-date tooltip. Off in the server's render and its hydration: the server formats in
   * its own time zone, and hydration keeps attributes as they are, so the tooltip is added once mounted.
   */
  dateTitles: boolean;
}

function RowImpl(props: RowProps) {
  const { item, index, locale } = props;
  const selected = useSelector(() => selection.value.has(item.path));
  const focused = useSelector(() => focusIndex.value === index);
  const knownSize = useSelector(() =>
    item.isDir ? folderSizes.value.get(folderKey(item.path)) ?? null : null
  );
  // Images show a small thumbnail in every view, loaded lazily when the row comes near the viewport.
  const thumb = props.thumbs && item.type === "image";
  const cls = `row${item.isDir ? " dir" : ""}${selected ? " selected" : ""}${focused ? " focused" : ""}`;
  const full = formatDate(item.modified, locale);
  const icon = <Icon node={iconOf(item)} size={props.mode === "mosaic gallery" ? 48 : 22} />;
  return (
    <div
      role="option"
      id={`item-${index}`}
      class={cls}
      aria-selected={selected}
      aria-posinset={index + 1}
      aria-setsize={props.total}
      data-index={index}
      data-name={item.name}
      data-dir={item.isDir ? "true" : undefined}
      draggable={props.draggable}
    >
      <span class="check" aria-hidden="true">
        <Icon node={Check} size={14} />
      </span>
      <span class="thumb">
        {thumb ? <Thumb url={thumbUrl(item)} fallback={icon} /> : icon}
      </span>
      <span class="name" title={item.name}>
        <bdi>{item.name}</bdi>
      </span>
      <span class="size">
        {item.isDir
          ? (knownSize ? <bdi>{formatSize(knownSize.bytes, locale)}</bdi> : "—")
          : item.type === "invalid_link"
          ? props.invalidLinkText
          : <bdi>{formatSize(item.size, locale)}</bdi>}
      </span>
      <span class="modified">
        <time dateTime={item.modified} title={props.dateTitles ? full : undefined}>
          {props.absoluteDates ? full : formatRelative(item.modified, { locale })}
        </time>
      </span>
    </div>
  );
}

/** One item of the listing (a row in list mode, a card in the mosaic modes). */
export const Row = memo(RowImpl);
