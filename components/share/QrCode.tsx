import { QR_SIZE, qrPath } from "../../client/share_qr.ts";

/** A QR code drawn as SVG (no script, no inline style), 200 px. */
export function QrCode(props: { text: string; label: string }) {
  const { d, size } = qrPath(props.text);
  return (
    <svg
      class="share-qr"
      xmlns="http://www.w3.org/2000/svg"
      width={QR_SIZE}
      height={QR_SIZE}
      viewBox={`0 0 ${size} ${size}`}
      shape-rendering="crispEdges"
      role="img"
      aria-label={props.label}
      data-testid="share-qr"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
