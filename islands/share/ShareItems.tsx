import { useState } from "react";
import { Icon } from "../../components/Icon.tsx";
import { Copy, Download, File, Folder, LayoutGrid, List } from "../../components/icons.ts";
import { ShareGallery } from "../../components/share/ShareGallery.tsx";
import { SHARE_PAGE_SIZE } from "../../client/share.ts";
import { formatDate, formatRelative, formatSize } from "../../lib/format.ts";
import type { Resource } from "../../lib/types.ts";

function plainClick(e: MouseEvent): boolean {
  return e.button === 0 && !e.ctrlKey && !e.metaKey && !e.shiftKey;
}

/** The read-only item list of a shared folder: 100 rows at a time, multi-select, download, copy link, gallery. */
export function ShareItems(props: {
  items: Resource[];
  pageUrl: (item: Resource) => string;
  imageUrl: (item: Resource) => string;
  onOpen: (item: Resource) => void;
  onDownload: (items: Resource[]) => void;
  onCopy: (item: Resource) => void;
  locale: string;
  t: (k: string, v?: Record<string, string | number>) => string;
}) {
  const { items, t, locale } = props;
  const [shown, setShown] = useState(SHARE_PAGE_SIZE);
  const images = items.some((i) => i.type === "image");
  const [gallery, setGallery] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const toggle = (path: string) => {
    const next = new Set(selected);
    if (next.has(path)) next.delete(path);
    else next.add(path);
    setSelected(next);
  };
  const chosen = items.filter((i) => selected.has(i.path));
  const rest = items.length - shown;
  if (!items.length) return <p class="card share-items empty">{t("files.lonely")}</p>;
  const open = (item: Resource, e: MouseEvent) => {
    if (!plainClick(e)) return;
    e.preventDefault();
    props.onOpen(item);
  };
  return (
    <section class="card share-items" data-testid="share-items">
      <div class="share-bar">
        <span class="muted">{t("files.selected", { count: chosen.length })}</span>
        {images && (
          <button
            type="button"
            class="button flat share-view"
            aria-pressed={gallery}
            onClick={() => setGallery(!gallery)}
            data-testid="share-gallery-toggle"
          >
            <Icon node={gallery ? List : LayoutGrid} />
            {gallery ? t("share.listView") : t("share.galleryView")}
          </button>
        )}
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
      {gallery
        ? (
          <ShareGallery
            items={items.slice(0, shown)}
            imageUrl={props.imageUrl}
            pageUrl={props.pageUrl}
            onOpen={open}
          />
        )
        : (
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
                      class="share-checkbox"
                      checked={selected.has(item.path)}
                      onChange={() =>
                        toggle(item.path)}
                      aria-label={t("share.selectItem", { name: item.name })}
                    />
                  </td>
                  <td>
                    <a
                      href={props.pageUrl(item)}
                      onClick={(e) =>
                        open(item, e)}
                    >
                      <Icon node={item.isDir ? Folder : File} size={18} /> <bdi>{item.name}</bdi>
                    </a>
                  </td>
                  <td>{item.isDir ? "—" : formatSize(item.size, locale)}</td>
                  <td title={formatDate(item.modified, locale)}>
                    {formatRelative(item.modified, { locale })}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      {rest > 0 && (
        <div class="share-bar">
          <button
            type="button"
            class="button flat"
            onClick={() => setShown(shown + SHARE_PAGE_SIZE)}
            data-testid="share-more"
          >
            {t("share.showMoreCount", { count: Math.min(rest, SHARE_PAGE_SIZE) })}
          </button>
        </div>
      )}
    </section>
  );
}
