import { useState } from "react";
import { Icon } from "../../components/Icon.tsx";
import { Copy, Download, File, Folder } from "../../components/icons.ts";
import { SHARE_PAGE_SIZE } from "../../client/share.ts";
import { formatDate, formatRelative, formatSize } from "../../lib/format.ts";
import type { Resource } from "../../lib/types.ts";

/** The read-only item list of a shared folder: 100 rows, "+N" for 100 more, multi-select, download, copy link. */
export function ShareItems(props: {
  items: Resource[];
  pageUrl: (item: Resource) => string;
  onOpen: (item: Resource) => void;
  onDownload: (items: Resource[]) => void;
  onCopy: (item: Resource) => void;
  locale: string;
  t: (k: string, v?: Record<string, string | number>) => string;
}) {
  const { items, t, locale } = props;
  const [shown, setShown] = useState(SHARE_PAGE_SIZE);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const toggle = (path: string) => {
    const next = new Set(selected);
    if (next.has(path)) next.delete(path);
    else next.add(path);
    setSelected(next);
  };
  const chosen = items.filter((i) => selected.has(i.path));
  const rest = items.length - shown;
  if (!items.length) return <p class="empty">{t("files.lonely")}</p>;
  return (
    <section class="card share-items" data-testid="share-items">
      <div class="share-bar">
        <span class="muted">{t("files.selected", { count: chosen.length })}</span>
        {chosen.length > 0 && (
          <button
            type="button"
            class="button outline"
            onClick={() => props.onDownload(chosen)}
            data-testid="share-dl-selected"
          >
            <Icon node={Download} />
            {t("buttons.download")}
          </button>
        )}
        {chosen.length === 1 && !chosen[0].isDir && (
          <button
            type="button"
            class="button outline"
            onClick={() => props.onCopy(chosen[0])}
            data-testid="share-copy-file"
          >
            <Icon node={Copy} />
            {t("share.copyLink")}
          </button>
        )}
      </div>
      <table>
        <thead>
          <tr>
            <th>
              <span class="sr-only">{t("share.select")}</span>
            </th>
            <th>{t("share.name")}</th>
            <th>{t("share.size")}</th>
            <th>{t("share.modified")}</th>
          </tr>
        </thead>
        <tbody>
          {items.slice(0, shown).map((item) => (
            <tr key={item.path} aria-selected={selected.has(item.path)} data-name={item.name}>
              <td>
                <input
                  type="checkbox"
                  checked={selected.has(item.path)}
                  onChange={() =>
                    toggle(item.path)}
                  aria-label={t("share.selectItem", { name: item.name })}
                />
              </td>
              <td>
                <a
                  href={props.pageUrl(item)}
                  onClick={(e) => {
                    if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) {
                      return;
                    }
                    e.preventDefault();
                    props.onOpen(item);
                  }}
                >
                  <Icon node={item.isDir ? Folder : File} size={18} /> <bdi>{item.name}</bdi>
                </a>
              </td>
              <td>{item.isDir ? "—" : formatSize(item.size, locale)}</td>
              <td title={formatDate(item.modified, locale)}>{formatRelative(item.modified, { locale })}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rest > 0 && (
        <div class="share-bar">
          <button
            type="button"
            class="button flat"
            onClick={() => setShown(shown + SHARE_PAGE_SIZE)}
            aria-label={t("share.showMore")}
            data-testid="share-more"
          >
            +{rest}
          </button>
        </div>
      )}
    </section>
  );
}
