import type { IconNode } from "lucide";
import { X } from "../icons.ts";
import { fileIconOf } from "../file_icon.ts";
import { Icon } from "../Icon.tsx";

/** What one row of the upload panel shows. */
export interface UploadRowItem {
  id: number;
  name: string;
  isDir: boolean;
  /** Item type; unset for folders. */
  type?: string;
  progress: number;
  done: boolean;
}

/** Props of UploadRow. */
export interface UploadRowProps {
  item: UploadRowItem;
  /** The percentage written the locale's way ("25%"). */
  percentText: string;
  /** Accessible name of the type icon (already translated). */
  typeLabel: string;
  /** Accessible name of the cancel button (already translated). */
  cancelLabel: string;
  onCancel: (id: number) => void;
}

/** The icon of an upload item (the shared rule of components/file_icon.ts). */
export function uploadTypeIcon(item: Pick<UploadRowItem, "isDir" | "type" | "name">): IconNode {
  return fileIconOf(item);
}

/** One file or folder in the upload panel: type icon, name, percentage, bar, cancel button. */
export function UploadRow(props: UploadRowProps) {
  const { item } = props;
  return (
    <li
      class="upload-item"
      data-testid="upload-item"
      data-name={item.name}
      data-progress={item.progress}
      data-dir={item.isDir ? "true" : undefined}
      data-done={item.done ? "true" : undefined}
    >
      <Icon node={uploadTypeIcon(item)} size={20} label={props.typeLabel} />
      <span class="name" title={item.name}>{item.name}</span>
      <bdi class="pct" dir="ltr">{props.percentText}</bdi>
      {item.done ? <span /> : (
        <button
          type="button"
          class="action small"
          aria-label={props.cancelLabel}
          title={props.cancelLabel}
          data-testid="upload-cancel"
          onClick={() => props.onCancel(item.id)}
        >
          <Icon node={X} size={16} />
        </button>
      )}
      <progress max={100} value={item.progress} aria-hidden="true" />
    </li>
  );
}
