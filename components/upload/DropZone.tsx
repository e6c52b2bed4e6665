import { Ban, Upload } from "./icons.ts";
import { Icon } from "../Icon.tsx";

/** Props of DropZone. */
export interface DropZoneProps {
  /** What a drop would do, already translated ("Drop to upload to Photos"). */
  label: string;
  /** The pointer is over a folder row (the row itself is highlighted; the zone steps back). */
  onRow: boolean;
  /** A drop here is refused (a selected folder). */
  refused: boolean;
}

/** The frame shown over the listing while files are dragged over the page. */
export function DropZone(props: DropZoneProps) {
  const cls = `upload-dropzone${props.onRow ? " on-row" : ""}${props.refused ? " refused" : ""}`;
  return (
    <div class={cls} data-testid="upload-dropzone" data-refused={props.refused ? "true" : undefined}>
      <div class="upload-dropzone-label" role="status">
        <Icon node={props.refused ? Ban : Upload} size={22} />
        <span>{props.label}</span>
      </div>
    </div>
  );
}
