import type { IconNode } from "lucide";
import { Icon } from "../Icon.tsx";

/** Props of NoPreview. */
export interface NoPreviewProps {
  name: string;
  icon: IconNode;
  message: string;
  /** Download link; omitted without the download permission. */
  downloadUrl?: string;
  downloadLabel: string;
  downloadIcon: IconNode;
}

/** The card shown for files the browser cannot display: name, "No preview", a download button. */
export function NoPreview(props: NoPreviewProps) {
  return (
    <div class="preview-none" data-testid="preview-none">
      <Icon node={props.icon} size={72} />
      <p class="preview-none-name">{props.name}</p>
      <p>{props.message}</p>
      {props.downloadUrl && (
        <a class="button" href={props.downloadUrl} download data-testid="preview-none-download">
          <Icon node={props.downloadIcon} size={18} /> {props.downloadLabel}
        </a>
      )}
    </div>
  );
}
