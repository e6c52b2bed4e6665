import { h } from "preact";
import type { IconNode } from "lucide";

/** Props of Icon. */
export interface IconProps {
  node: IconNode;
  size?: number;
  class?: string;
  /** Accessible name; without it the icon is decorative (hidden from assistive technology). */
  label?: string;
}

/** One icon of the self-hosted set (lucide's SVG data), drawn with the current text colour. */
export function Icon(props: IconProps) {
  const size = props.size ?? 20;
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      class={props.class ? `icon ${props.class}` : "icon"}
      role={props.label ? "img" : undefined}
      aria-label={props.label}
      aria-hidden={props.label ? undefined : "true"}
      focusable="false"
    >
      {props.node.map(([tag, attrs], i) => h(tag, { key: i, ...attrs }))}
    </svg>
  );
}
