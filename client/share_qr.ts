// This module is browser-compatible.
/** QR codes of share links, as one SVG path (qrcode-generator does the encoding). */
import qrcode from "qrcode-generator";

/** Error correction level of share QR codes. */
export const QR_LEVEL = "M";
/** Size of the QR code in CSS pixels. */
export const QR_SIZE = 200;
/** Quiet zone around the code, in modules. */
const MARGIN = 4;

/** The dark modules of the QR code of `text` as an SVG path in module units; `size` includes the quiet zone. */
export function qrPath(text: string): { d: string; size: number } {
  const qr = qrcode(0, QR_LEVEL);
  qr.addData(unescape(encodeURIComponent(text)));
  qr.make();
  const n = qr.getModuleCount();
  const parts: string[] = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) if (qr.isDark(r, c)) parts.push(`M${c + MARGIN} ${r + MARGIN}h1v1h-1z`);
  }
  return { d: parts.join(""), size: n + 2 * MARGIN };
}
