/**
 * Decoding of zip entry names, the way `@zip.js/zip.js` (which extracted before our own reader) decodes them,
 * so an archive gives the same names as before and as other zip.js-based tools:
 *
 * - general-purpose bit 11 set: UTF-8 (invalid sequences become U+FFFD; a byte order mark is kept);
 * - otherwise UTF-8 when the bytes contain something above 0x7F and are valid UTF-8 (Info-ZIP on Linux
 *   writes UTF-8 without the flag), else IBM code page 437 over all 256 bytes (the zip specification's
 *   default: 0x01–0x1F and 0x7F are the graphic symbols of the IBM PC, never control characters);
 * - an Info-ZIP Unicode Path extra field (0x7075, version 1, holding the CRC-32 of the raw name) replaces
 *   the name with its UTF-8 text, unless bit 11 is set.
 */
import { crc32Js as crc32 } from "../archive/crc_table.ts";

/** Code page 437: the character of every byte value (0x00 stays NUL). */
const CP437 = [
  "\0☺☻♥♦♣♠•◘○◙♂♀♪♫☼►◄↕‼¶§▬↨↑↓→←∟↔▲▼",
  " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~⌂",
  "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»",
  "░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀",
  "αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0",
].join("");

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The name of a raw zip name field; `utf8Flag` is general-purpose bit 11. */
export function decodeZipName(raw: Uint8Array, utf8Flag: boolean): string {
  if (utf8Flag) return utf8.decode(raw);
  let plain = true;
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i];
    if (b > 0x7f) {
      try {
        return strictUtf8.decode(raw);
      } catch {
        return cp437(raw);
      }
    }
    if (b < 0x20 || b === 0x7f) plain = false;
  }
  // Printable ASCII reads the same in code page 437 and UTF-8 (the decoder is the fast path).
  return plain ? utf8.decode(raw) : cp437(raw);
}

function cp437(raw: Uint8Array): string {
  const chars = new Array<string>(raw.length);
  for (let i = 0; i < raw.length; i++) chars[i] = CP437[raw[i]];
  return chars.join("");
}

/**
 * The name an Info-ZIP Unicode Path field (its data, after the 4-byte field header) gives an entry, or null
 * when it does not apply: too short, not version 1, bit 11 set, or the CRC-32 does not match the raw name
 * (the name was changed by a tool that did not know the field).
 */
export function unicodePathName(data: Uint8Array, raw: Uint8Array, utf8Flag: boolean): string | null {
  if (data.length < 5 || data[0] !== 1 || utf8Flag) return null;
  const stored = (data[1] | (data[2] << 8) | (data[3] << 16) | (data[4] << 24)) >>> 0;
  return stored === crc32(0, raw) ? utf8.decode(data.subarray(5)) : null;
}
