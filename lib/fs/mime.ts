/**
 * A pinned extension → MIME table (upstream's, not the host's mime.types) plus the small content sniffer
 * and the "binary" test used for type detection. Keys are lower-case extensions with the dot.
 */

const EXACT: Record<string, string> = {
  // Go runtime built-ins.
  ".avif": "image/avif",
  ".css": "text/css; charset=utf-8",
  ".gif": "image/gif",
  ".htm": "text/html; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".jpeg": "image/jpeg",
  ".jpg": "image/jpeg",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".mjs": "text/javascript; charset=utf-8",
  ".pdf": "application/pdf",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".wasm": "application/wasm",
  ".webp": "image/webp",
  ".xml": "text/xml; charset=utf-8",
  // Pinned here because host tables disagree (e.g. `.ts` as MPEG transport stream).
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".ts": "text/typescript; charset=utf-8",
  ".tsx": "text/typescript; charset=utf-8",
  ".jsx": "text/javascript; charset=utf-8",
  ".yaml": "text/yaml; charset=utf-8",
  ".yml": "text/yaml; charset=utf-8",
  ".toml": "text/plain; charset=utf-8",
  ".log": "text/plain; charset=utf-8",
  ".ini": "text/plain; charset=utf-8",
  ".conf": "text/plain; charset=utf-8",
  ".go": "text/x-go; charset=utf-8",
  ".rs": "text/x-rust; charset=utf-8",
  ".csv": "text/csv; charset=utf-8",
  ".tsv": "text/tab-separated-values; charset=utf-8",
  ".py": "text/x-python; charset=utf-8",
  ".sh": "text/x-sh; charset=utf-8",
  ".c": "text/x-c; charset=utf-8",
  ".h": "text/x-c; charset=utf-8",
  ".java": "text/x-java; charset=utf-8",
  ".srt": "text/plain; charset=utf-8",
  ".vtt": "text/vtt; charset=utf-8",
  ".ass": "text/plain; charset=utf-8",
  ".ssa": "text/plain; charset=utf-8",
  ".rtf": "text/rtf; charset=utf-8",
  ".webm": "video/webm",
  ".heic": "image/heic",
  ".heif": "image/heif",
  ".3gp": "video/3gpp",
  ".wmv": "video/x-ms-wmv",
  ".wma": "audio/x-ms-wma",
  ".mp4": "video/mp4",
  ".m4v": "video/x-m4v",
  ".mkv": "video/x-matroska",
  ".mov": "video/quicktime",
  ".avi": "video/x-msvideo",
  ".mpeg": "video/mpeg",
  ".mpg": "video/mpeg",
  ".ogv": "video/ogg",
  ".opus": "video/ogg",
  ".flv": "video/x-flv",
  ".mp3": "audio/mpeg",
  ".m4a": "audio/mp4",
  ".aac": "audio/aac",
  ".flac": "audio/flac",
  ".ogg": "audio/ogg",
  ".oga": "audio/ogg",
  ".wav": "audio/wav",
  ".bmp": "image/bmp",
  ".ico": "image/x-icon",
  ".tif": "image/tiff",
  ".tiff": "image/tiff",
  ".zip": "application/zip",
  ".gz": "application/gzip",
  ".tar": "application/x-tar",
  ".7z": "application/x-7z-compressed",
  ".xz": "application/x-xz",
  ".bz2": "application/x-bzip2",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".otf": "font/otf",
  ".xhtml": "application/xhtml+xml",
};

// Upstream's own extension lists, by top-level type.
const BY_TYPE: Record<string, string> = {
  image:
    ".art .bmp .flo .fpx .g3 .gif .ico .ief .iefs .jfif-tbnl .jfif .jpe .jpeg .jpg .jps .jut .nap .naplps .nif " +
    ".niff .pbm .pct .pcx .pgm .pic .pict .png .ppm .qif .qti .qtif .rast .rf .rgb .rp .svf .svg .tif .tiff .turbot " +
    ".wbmp .x-png .xbm .xif .xpm .xwd .webp",
  video:
    ".afl .asf .avi .avs .dif .divx .dl .dv .fli .flv .fmf .gl .isu .m1v .m2v .mjpg .moov .mov .movie .mp4 .mpe " +
    ".mpeg .mpg .mv .ogv .qt .qtc .rv .vdo .viv .vivo .vos .xdr .xsr .opus .m4v .mkv",
  audio:
    ".aif .aifc .aiff .au .funk .gsd .gsm .it .jam .kar .la .lam .lma .m2a .m3u .mjf .mod .mp2 .mp3 .mpa .mpga .my " +
    ".oga .ogg .pfunk .qcp .ra .ram .rmi .rmm .rmp .rpm .s3m .sid .snd .spx .tsi .voc .vox .vqe .vqf .vql .wav .xm .m4a " +
    ".flac .amr .aac .caf",
  text:
    ".abc .acgi .aip .asm .asp .c .cc .cpp .csh .css .csv .el .etx .f77 .f90 .f .flx .for .h .hh .hlb .htc .htm " +
    ".html .htmls .htt .htx .ics .icz .jav .java .ksh .lsp .lsx .m .manifest .mcf .p .pas .pl .pm .py .rexx .rt .rtf " +
    ".rtx .s .scm .sgm .sgml .sh .shtml .spc .ssi .talk .tcl .tcsh .tsv .uil .uni .unis .uri .uris .uu .uue .vcf " +
    ".vcard .vcs .wml .wmls .wsc .zsh",
};

const TABLE = new Map<string, string>();
for (const [type, list] of Object.entries(BY_TYPE)) {
  for (const ext of list.split(" ")) {
    TABLE.set(ext, `${type}/x-${ext.slice(1)}${type === "text" ? "; charset=utf-8" : ""}`);
  }
}
for (const [ext, mime] of Object.entries(EXACT)) TABLE.set(ext, mime);

/** The MIME type of a file name by its last extension (case-insensitive), or "" when unknown. */
export function mimeByExtension(name: string): string {
  const i = name.lastIndexOf(".");
  if (i < 0) return "";
  return TABLE.get(name.slice(i).toLowerCase()) ?? "";
}

/** True when the extension of `name` is in the pinned table (so listings never need to open the file). */
export function hasKnownExtension(name: string): boolean {
  return mimeByExtension(name) !== "";
}

function startsWith(buf: Uint8Array, sig: number[] | string, offset = 0): boolean {
  const bytes = typeof sig === "string" ? [...sig].map((c) => c.charCodeAt(0)) : sig;
  if (buf.length < offset + bytes.length) return false;
  return bytes.every((b, i) => buf[offset + i] === b);
}

/**
 * A small content sniffer for the first bytes of a file (a subset of WHATWG MIME sniffing): common image,
 * audio, video, PDF and archive signatures, then text vs binary. An empty buffer is text.
 */
export function sniffMime(head: Uint8Array): string {
  if (head.length === 0) return "text/plain; charset=utf-8";
  if (startsWith(head, "%PDF-")) return "application/pdf";
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(head, "GIF87a") || startsWith(head, "GIF89a")) return "image/gif";
  if (startsWith(head, "RIFF") && startsWith(head, "WEBP", 8)) return "image/webp";
  if (startsWith(head, "RIFF") && startsWith(head, "WAVE", 8)) return "audio/wave";
  if (startsWith(head, "RIFF") && startsWith(head, "AVI ", 8)) return "video/avi";
  if (startsWith(head, "BM")) return "image/bmp";
  if (startsWith(head, [0x00, 0x00, 0x01, 0x00])) return "image/x-icon";
  if (startsWith(head, "ftyp", 4)) return "video/mp4";
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return "video/webm";
  if (startsWith(head, "OggS")) return "application/ogg";
  if (startsWith(head, "ID3") || startsWith(head, [0xff, 0xfb])) return "audio/mpeg";
  if (startsWith(head, "fLaC")) return "audio/flac";
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return "application/zip";
  if (startsWith(head, [0x1f, 0x8b, 0x08])) return "application/x-gzip";
  return isBinary(head) ? "application/octet-stream" : "text/plain; charset=utf-8";
}

const decoder = new TextDecoder("utf-8", { fatal: false });

/**
 * filebrowser's "binary" test: a code point ≤ 8, or an invalid sequence / U+FFFD anywhere but in the
 * last 4 code points (a character cut at the buffer's end is tolerated). An empty buffer is not binary.
 */
export function isBinary(buf: Uint8Array): boolean {
  const cps = [...decoder.decode(buf)];
  let firstError = -1;
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i].codePointAt(0)!;
    if (cp <= 8) return true;
    if (cp === 0xfffd && firstError < 0) firstError = i;
  }
  if (firstError < 0) return false;
  if (cps.length - firstError > 4) return true;
  return cps.slice(firstError).some((c) => c !== "\ufffd");
}
