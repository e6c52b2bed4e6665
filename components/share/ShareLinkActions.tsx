import { Icon } from "../Icon.tsx";
import { Copy, Trash2 } from "../icons.ts";

/** Props of ShareLinkActions. */
export interface ShareLinkActionsProps {
  copyLabel: string;
  deleteLabel: string;
  onCopy: () => void;
  onDelete: () => void;
}

/** The copy-link and delete buttons of one share link (share dialog and share management page). */
export function ShareLinkActions(props: ShareLinkActionsProps) {
  return (
    <>
      <button
        type="button"
        class="action"
        title={props.copyLabel}
        aria-label={props.copyLabel}
        onClick={props.onCopy}
        data-testid="share-copy"
      >
        <Icon node={Copy} />
      </button>
      <button
        type="button"
        class="action"
        title={props.deleteLabel}
        aria-label={props.deleteLabel}
        onClick={props.onDelete}
        data-testid="share-delete-link"
      >
        <Icon node={Trash2} />
      </button>
    </>
  );
}
