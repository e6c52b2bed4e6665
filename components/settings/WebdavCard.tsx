/** The WebDAV card of Settings › Profile: the address to copy and how to connect from each system. */

/** Props of {@link WebdavCard}. */
export interface WebdavCardProps {
  /** Absolute URL of the endpoint (`https://host/base/dav/`). */
  url: string;
  username: string;
  t: (key: string) => string;
  onCopy: () => void;
}

/** Shows the WebDAV address with a copy button and short per-system instructions. */
export function WebdavCard(props: WebdavCardProps) {
  const { t, url } = props;
  const rclone =
    `rclone config create NAME webdav url=${url} vendor=other user=${props.username} pass=PASSWORD --obscure`;
  return (
    <section class="card settings-card" data-testid="webdav-card">
      <h2 class="card-title">{t("settings.webdav.title")}</h2>
      <div class="card-content settings-fields">
        <p>{t("settings.webdav.intro")}</p>
        <div class="field">
          <input
            class="input"
            readOnly
            value={url}
            aria-label={t("settings.webdav.title")}
            data-testid="webdav-url"
          />
          <button type="button" class="button" onClick={props.onCopy}>{t("settings.webdav.copy")}</button>
        </div>
        <ul>
          <li>{t("settings.webdav.windows")}</li>
          <li>{t("settings.webdav.macos")}</li>
          <li>{t("settings.webdav.linux")}</li>
          <li>
            {t("settings.webdav.rclone")}
            <pre><code>{rclone}</code></pre>
          </li>
        </ul>
      </div>
    </section>
  );
}
