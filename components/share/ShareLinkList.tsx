import type { Share } from "../../lib/types.ts";
import { ShareDates } from "./ShareDates.tsx";
import { ShareLinkActions } from "./ShareLinkActions.tsx";
import { ShareLinkName } from "./ShareLinkName.tsx";

/** Props of ShareLinkList. */
export interface ShareLinkListProps {
  links: Share[];
  urlOf: (hash: string) => string;
  onCopy: (hash: string) => void;
  onDelete: (hash: string) => void;
  locale: string;
  t: (key: string, vars?: Record<string, string | number>) => string;
}

/** The share dialog's links: name (lock for password links), created and expiry dates, copy and delete. */
export function ShareLinkList(props: ShareLinkListProps) {
  const { t } = props;
  return (
    <ul class="share-links" data-testid="share-links">
      {props.links.map((l) => (
        <li key={l.hash} data-hash={l.hash}>
          <span class="share-link-text">
            <ShareLinkName
              hash={l.hash}
              href={props.urlOf(l.hash)}
              hasPassword={l.hasPassword}
              passwordLabel={t("share.passwordProtected")}
            />
            <ShareDates created={l.created} expire={l.expire} locale={props.locale} t={t} />
            {l.kind === "drop" && (
              <span class="share-hint" data-testid="share-drop-badge">{t("share.dropBadge")}</span>
            )}
          </span>
          <ShareLinkActions
            copyLabel={t("share.copyLink")}
            deleteLabel={t("share.deleteLink")}
            onCopy={() => props.onCopy(l.hash)}
            onDelete={() => props.onDelete(l.hash)}
          />
        </li>
      ))}
    </ul>
  );
}
