import { Icon } from "../../components/Icon.tsx";
import { Download } from "../../components/icons.ts";
import { rawUrl } from "../../client/api/mod.ts";
import type { PageView } from "../../client/hooks.ts";
import { formatDate, formatSize } from "../../lib/format.ts";
import type { Resource } from "../../lib/types.ts";
import { iconOf } from "./Row.tsx";

/** The plain view of a file when no preview or editor is registered: name, size, date, download. */
export function FileCard(props: { file: Resource; page: PageView }) {
  const { file, page } = props;
  const { t, locale, user } = page;
  return (
    <section class="card file-card" data-testid="file-card">
      <Icon node={iconOf(file)} size={64} class="file-card-icon" />
      <h2 class="break">{file.name}</h2>
      <p class="muted">
        <bdi>{formatSize(file.size, locale)}</bdi> ·{" "}
        <time dateTime={file.modified}>{formatDate(file.modified, locale)}</time>
      </p>
      <p>{t("files.noPreview")}</p>
      {user?.perm.download && (
        <a class="button" href={rawUrl(file.path)} download>
          <Icon node={Download} size={18} /> {t("buttons.download")}
        </a>
      )}
    </section>
  );
}
