import { Icon } from "../Icon.tsx";
import { Lock } from "../icons.ts";

/** Props of ShareLinkName. */
export interface ShareLinkNameProps {
  hash: string;
  href: string;
  hasPassword: boolean;
  passwordLabel: string;
}

/** A link's name (its hash or custom name) as a link to the share page, with a lock when it needs a password. */
export function ShareLinkName(props: ShareLinkNameProps) {
  return (
    <span class="share-name">
      <a href={props.href} target="_blank" rel="noopener" data-testid="share-link-name">{props.hash}</a>
      {props.hasPassword && (
        <span class="share-lock" title={props.passwordLabel} role="img" aria-label={props.passwordLabel}>
          <Icon node={Lock} size={14} />
        </span>
      )}
    </span>
  );
}
