// This module is browser-compatible.
/**
 * TIFF-family images (tif, tiff, dng, cr2, nef) decoded in the browser, since browsers cannot show them: the file is
 * fetched as an ArrayBuffer, its largest colour image is decoded with utif2 (loaded on demand) and drawn to a PNG.
 */
import { fetchImageBytes } from "../api/raw.ts";

/** Extensions decoded in the browser (lower case, with the dot). */
export const TIFF_EXTENSIONS = [".tif", ".tiff", ".dng", ".cr2", ".nef"];

/** True for a file name of the TIFF family. */
export function isTiffName(name: string): boolean {
  const dot = name.lastIndexOf(".");
  return dot >= 0 && TIFF_EXTENSIONS.includes(name.slice(dot).toLowerCase());
}

interface Ifd {
  [tag: string]: unknown;
  subIFD?: Ifd[];
  width: number;
  height: number;
}

interface Utif {
  decode(buffer: ArrayBuffer): Ifd[];
  decodeImage(buffer: ArrayBuffer, ifd: Ifd, ifds?: Ifd[]): void;
  toRGBA8(ifd: Ifd): Uint8Array;
}

async function loadUtif(): Promise<Utif> {
  const mod = await import("utif2") as unknown as { default?: Utif } & Utif;
  return mod.default ?? mod;
}

function tagNumbers(ifd: Ifd, tag: string): number[] {
  const v = ifd[tag];
  return Array.isArray(v) ? v as number[] : [];
}

/** Picks the image to show: the largest by area, preferring colour (3+ samples) over the raw sensor planes. */
function pickImage(ifds: Ifd[]): Ifd | null {
  const all = [...ifds, ...ifds.flatMap((i) => i.subIFD ?? [])].filter((i) => tagNumbers(i, "t256").length);
  let best: Ifd | null = null;
  let bestScore = -1;
  for (const ifd of all) {
    const area = tagNumbers(ifd, "t256")[0] * (tagNumbers(ifd, "t257")[0] ?? 0);
    const colour = tagNumbers(ifd, "t258").length >= 3 || (tagNumbers(ifd, "t277")[0] ?? 1) >= 3;
    const score = area + (colour ? Number.MAX_SAFE_INTEGER / 2 : 0);
    if (score > bestScore) [best, bestScore] = [ifd, score];
  }
  return best;
}

/** Decoded pixels. */
export interface DecodedImage {
  width: number;
  height: number;
  rgba: Uint8ClampedArray<ArrayBuffer>;
}

/** Decodes a TIFF-family file to RGBA pixels; throws when the file holds no decodable image. */
export async function decodeTiff(buffer: ArrayBuffer): Promise<DecodedImage> {
  const utif = await loadUtif();
  const ifds = utif.decode(buffer);
  const ifd = pickImage(ifds);
  if (!ifd) throw new Error("No image in TIFF file");
  utif.decodeImage(buffer, ifd, ifds);
  const rgba = utif.toRGBA8(ifd);
  if (!ifd.width || !ifd.height || rgba.length < ifd.width * ifd.height * 4) {
    throw new Error("Cannot decode TIFF image");
  }
  const copy = new Uint8ClampedArray(ifd.width * ifd.height * 4);
  copy.set(rgba.subarray(0, copy.length));
  return { width: ifd.width, height: ifd.height, rgba: copy };
}

/** Renders TIFF-family bytes to a PNG and returns its object URL (revoke it when done). */
export async function tiffObjectUrl(buffer: ArrayBuffer): Promise<string> {
  const image = await decodeTiff(buffer);
  const canvas = document.createElement("canvas");
  canvas.width = image.width;
  canvas.height = image.height;
  canvas.getContext("2d")!.putImageData(new ImageData(image.rgba, image.width, image.height), 0, 0);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
  if (!blob) throw new Error("Cannot render TIFF image");
  return URL.createObjectURL(blob);
}

/** True when bytes start with a TIFF header (either byte order); resized previews may be JPEG or PNG instead. */
export function hasTiffHeader(buffer: ArrayBuffer): boolean {
  const b = new Uint8Array(buffer, 0, Math.min(4, buffer.byteLength));
  return (b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a && b[3] === 0) ||
    (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0 && b[3] === 0x2a);
}

/** Fetches an image as an ArrayBuffer and returns an object URL the browser can show (TIFF decoded to PNG). */
export async function loadImageObjectUrl(
  url: string,
  options: { signal?: AbortSignal } = {},
): Promise<string> {
  const buffer = await fetchImageBytes(url, options);
  if (!hasTiffHeader(buffer)) return URL.createObjectURL(new Blob([buffer]));
  return await tiffObjectUrl(buffer);
}
