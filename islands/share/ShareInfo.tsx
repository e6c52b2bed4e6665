import { Icon } from "../../components/Icon.tsx";
import { Download, File, Folder } from "../../components/icons.ts";
import { QrCode } from "../../components/share/QrCode.tsx";
import { formatDate, formatRelative, formatSize } from "../../lib/format.ts";
import type { PublicResource } from "../../client/api/mod.ts";

/** The info box of a share: icon, name, modified, size or item count, Download / Open file and a QR code. */
export function ShareInfo(props: {
  res: PublicResource;
  downloadUrl: string;
  openUrl: string | null;
  qrUrl: string;
  locale: string;
  t: (k: string, v?: Record<string, string | number>) => string;
}) {
  const { res, t, locale } = props;
  const count = res.items?.length ?? 0;
  return (
    <section class="card share-info" data-testid="share-info">
      <Icon node={res.isDir ? Folder : File} size={48} />
      <h1 data-testid="share-name">
        <bdi>{res.name}</bdi>
      </h1>
      <p class="share-meta" title={formatDate(res.modified, locale)}>
        {formatRelative(res.modified, { locale })}
      </p>
      <p class="share-meta" data-testid="share-size">
        {res.isDir ? t("share.items", { count }) : formatSize(res.size, locale)}
      </p>
      <div class="share-buttons">
        <a class="button" href={props.downloadUrl} download data-testid="share-download">
          <Icon node={Download} />
          {t("buttons.download")}
        </a>
        {props.openUrl && (
          <a
            class="button outline"
            href={props.openUrl}
            target="_blank"
            rel="noopener"
            data-testid="share-open"
          >
            {t("share.openFile")}
          </a>
        )}
      </div>
      <QrCode text={props.qrUrl} label={t("share.qr")} />
    </section>
  );
}
