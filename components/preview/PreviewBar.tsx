import type { IconNode } from "lucide";
import { Icon } from "../Icon.tsx";

/** One button of the preview bar. */
export interface PreviewButton {
  id: string;
  label: string;
  icon: IconNode;
  onClick?: () => void;
  /** Render as a link (downloads). */
  href?: string;
  download?: boolean;
  pressed?: boolean;
  /** Left out on small screens (touch has pinch zoom), so the file name keeps its room. */
  hideOnMobile?: boolean;
}

/** Props of PreviewBar. */
export interface PreviewBarProps {
  title: string;
  close: PreviewButton;
  buttons: PreviewButton[];
  /** Extra content between the title and the buttons (zoom level). */
  status?: string;
}

function Button(props: { b: PreviewButton }) {
  const { b } = props;
  const inner = <Icon node={b.icon} />;
  const cls = b.hideOnMobile ? "action hide-on-mobile" : "action";
  if (b.href) {
    return (
      <a
        class={cls}
        href={b.href}
        download={b.download}
        title={b.label}
        aria-label={b.label}
        data-testid={`preview-${b.id}`}
      >
        {inner}
      </a>
    );
  }
  return (
    <button
      type="button"
      class={cls}
      title={b.label}
      aria-label={b.label}
      aria-pressed={b.pressed}
      data-testid={`preview-${b.id}`}
      onClick={b.onClick}
    >
      {inner}
    </button>
  );
}

/** The top bar of the full-window preview: close, the file name, a status text and the file's actions. */
export function PreviewBar(props: PreviewBarProps) {
  return (
    <div class="preview-bar">
      <Button b={props.close} />
      <h2 class="preview-title" title={props.title} data-testid="preview-title">
        <bdi>{props.title}</bdi>
      </h2>
      {props.status && <span class="preview-status" data-testid="preview-status">{props.status}</span>}
      <div class="preview-actions" role="toolbar" aria-label={props.title}>
        {props.buttons.map((b) => <Button key={b.id} b={b} />)}
      </div>
    </div>
  );
}
