/**
 * Reads of the site's own configuration (`hugo.toml` and the like). The site folder may lie in a scope where users
 * and their commands write, so a config file may have been replaced by a symlink to a file elsewhere on the host
 * or in another scope: {@link readSiteConfig} never follows one, anywhere on the path.
 */
import { log } from "../log.ts";
import { readNoSymlinks } from "../fs/floor.ts";
import { readTopLevel } from "./front_matter.ts";

/** Largest config file read. */
export const MAX_SITE_CONFIG_BYTES = 1024 * 1024;

const HUGO_CONFIGS: [string, "toml" | "yaml" | "json"][] = [
  ["hugo.toml", "toml"],
  ["hugo.yaml", "yaml"],
  ["hugo.yml", "yaml"],
  ["hugo.json", "json"],
  ["config.toml", "toml"],
  ["config.yaml", "yaml"],
  ["config.yml", "yaml"],
  ["config.json", "json"],
];

/** What {@link readSiteConfig} found. */
export type SiteConfigRead =
  | { ok: true; text: string }
  /** "missing": no such file; "refused": a symlink, not a regular file, or larger than MAX_SITE_CONFIG_BYTES. */
  | { ok: false; why: "missing" | "refused" };

/**
 * Reads the file `name` (one path segment) of the site folder `siteReal` (a real path, as `siteRootReal()` gives)
 * without following a symlink: on Linux one `openat2()` with RESOLVE_NO_SYMLINKS for the whole path, so neither
 * the file nor a folder above it can be swapped for a link between the check and the read. Elsewhere (no FFI, old
 * kernels) the file must be a regular file whose real path is the path itself, checked right before the read.
 */
export async function readSiteConfig(siteReal: string, name: string): Promise<SiteConfigRead> {
  if (name === "" || name.includes("/") || name === "." || name === "..") {
    return { ok: false, why: "refused" };
  }
  const path = `${siteReal}/${name}`;
  const read = await readNoSymlinks(path, MAX_SITE_CONFIG_BYTES);
  if (read !== undefined) {
    if (read.ok) return { ok: true, text: new TextDecoder().decode(read.bytes) };
    return { ok: false, why: read.why === "missing" ? "missing" : "refused" };
  }
  try {
    // floor-exempt: only without FFI, where the disk floor cannot pin either; the real path is checked instead.
    const info = await Deno.lstat(path);
    // floor-exempt: as above.
    const real = info.isFile ? await Deno.realPath(path) : null;
    if (!info.isFile || info.size > MAX_SITE_CONFIG_BYTES || real !== path) {
      return { ok: false, why: "refused" };
    }
    // floor-exempt: as above.
    const bytes = await Deno.readFile(path);
    if (bytes.length > MAX_SITE_CONFIG_BYTES) return { ok: false, why: "refused" };
    return { ok: true, text: new TextDecoder().decode(bytes) };
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) {
      return { ok: false, why: "missing" };
    }
    throw err;
  }
}

/** The site title from the Hugo config in the site folder (`{{ .Site.Title }}`), or `fallback`. */
export async function readSiteTitle(siteReal: string | null, fallback: string): Promise<string> {
  if (siteReal === null) return fallback;
  for (const [name, format] of HUGO_CONFIGS) {
    const read = await readSiteConfig(siteReal, name);
    if (!read.ok && read.why === "missing") continue;
    if (!read.ok) {
      // The file Hugo would read is a link or no file: no title from it (and nothing from behind it).
      log.warn(`publish: not reading "${siteReal}/${name}": a symlink or not a regular file`);
      return fallback;
    }
    if (format !== "json") return readTopLevel(read.text, format, "title") ?? fallback;
    try {
      const title = (JSON.parse(read.text) as Record<string, unknown>).title;
      return typeof title === "string" ? title : fallback;
    } catch {
      return fallback; // A broken config is Hugo's to report.
    }
  }
  return fallback;
}
