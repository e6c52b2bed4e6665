import { formatDate, formatRelative } from "../../lib/format.ts";

/** Props of ShareDates. */
export interface ShareDatesProps {
  /** Unix seconds, or undefined when unknown. */
  created?: number;
  /** Unix seconds, 0 = never. */
  expire: number;
  locale: string;
  t: (key: string, vars?: Record<string, string | number>) => string;
}

function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/** "Created 2 days ago · Expires in 3 hours" (full dates on hover), for the share dialog's list. */
export function ShareDates(props: ShareDatesProps) {
  const { t, locale } = props;
  return (
    <span class="share-dates muted">
      {props.created !== undefined && (
        <span title={formatDate(iso(props.created), locale)} data-testid="share-created">
          {t("share.createdAt", { when: formatRelative(iso(props.created), { locale }) })}
        </span>
      )}
      <span
        title={props.expire ? formatDate(iso(props.expire), locale) : undefined}
        data-testid="share-expiry"
      >
        {props.expire
          ? t("share.expiresAt", { when: formatRelative(iso(props.expire), { locale }) })
          : t("share.permanent")}
      </span>
    </span>
  );
}
