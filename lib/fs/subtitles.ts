/** Subtitle discovery for videos and SRT/ASS → WebVTT conversion (docs/api.md#previews-and-subtitles). */
import { pinTarget, readDir } from "./floor.ts";
import { BadRequestError } from "../errors.ts";
import type { ScopedPath } from "./gate.ts";
import { scopedChild } from "./gate.ts";
import { joinVpath, splitExtension, vpathDir } from "./path.ts";
import { compareBytes } from "./sort.ts";

/** Upstream's subtitle name pattern: any character followed by vtt/srt/ass/ssa at the end. */
const SUBTITLE_NAME = /.(?:vtt|srt|ass|ssa)$/i;

/** True when a file name looks like a subtitle. */
export function isSubtitleName(name: string): boolean {
  return SUBTITLE_NAME.test(name);
}

async function visibleEntries(dir: ScopedPath): Promise<ScopedPath[]> {
  const names: string[] = [];
  try {
    using folder = pinTarget(dir);
    for await (const e of readDir(folder)) names.push(e.name);
  } catch {
    return [];
  }
  names.sort(compareBytes);
  const out: ScopedPath[] = [];
  for (const name of names) {
    // Unlike upstream, rules, hiding and symlink confinement apply here too: names must not leak.
    const child = await scopedChild(dir, name);
    if (child?.stat) out.push(child);
  }
  return out;
}

/**
 * Subtitle vpaths for a video: siblings named `<base>…<sub ext>`, subtitle files inside sibling `subs` /
 * `subtitles` folders, and inside those, files of sub-folders whose name starts with the video's base name.
 */
export async function findSubtitles(video: ScopedPath, parent: ScopedPath): Promise<string[]> {
  const name = video.vpath.slice(vpathDir(video.vpath).length).replace(/^\//, "");
  const { stem } = splitExtension(name);
  const out: string[] = [];
  for (const entry of await visibleEntries(parent)) {
    const entryName = entry.vpath.slice(entry.vpath.lastIndexOf("/") + 1);
    if (!entry.stat!.isDirectory) {
      if (entryName.startsWith(stem) && isSubtitleName(entryName)) out.push(entry.vpath);
      continue;
    }
    const lower = entryName.toLowerCase();
    if (lower !== "subs" && lower !== "subtitles") continue;
    for (const inner of await visibleEntries(entry)) {
      const innerName = inner.vpath.slice(inner.vpath.lastIndexOf("/") + 1);
      if (!inner.stat!.isDirectory) {
        if (isSubtitleName(innerName)) out.push(inner.vpath);
      } else if (innerName.startsWith(stem)) {
        for (const f of await visibleEntries(inner)) {
          const fName = f.vpath.slice(f.vpath.lastIndexOf("/") + 1);
          if (!f.stat!.isDirectory && isSubtitleName(fName)) out.push(joinVpath(inner.vpath, fName));
        }
      }
    }
  }
  return out;
}

/** Replaces every `<br>` variant (`<br>`, `<BR/>`, `<br />`, `<br class="x">`) with a newline. */
export function normalizeBreaks(text: string): string {
  return text.replace(/<br(?:\s[^>]*)?\s*\/?>/gi, "\n");
}

function normalizeNewlines(text: string): string {
  return text.replace(/^\ufeff/, "").replace(/\r\n?/g, "\n");
}

/** Converts SubRip text to WebVTT (timestamps `,` → `.`, `<br>` → newline). */
export function srtToVtt(srt: string): string {
  const body = normalizeNewlines(normalizeBreaks(srt)).trim();
  const cues = body.split(/\n{2,}/).map((block) => {
    const lines = block.split("\n");
    const timing = lines.findIndex((l) => l.includes("-->"));
    if (timing < 0) return "";
    lines[timing] = lines[timing].replace(/(\d+:\d{2}:\d{2}),(\d{3})/g, "$1.$2");
    return lines.slice(timing).join("\n");
  }).filter((c) => c !== "");
  return "WEBVTT\n\n" + cues.join("\n\n") + "\n";
}

function assTime(t: string): string {
  const m = t.trim().match(/^(\d+):(\d{1,2}):(\d{1,2})(?:[.,](\d{1,3}))?$/);
  if (!m) throw new BadRequestError(`invalid subtitle time "${t}"`, { code: "invalid_subtitle" });
  const ms = (m[4] ?? "0").padEnd(3, "0").slice(0, 3);
  return `${m[1].padStart(2, "0")}:${m[2].padStart(2, "0")}:${m[3].padStart(2, "0")}.${ms}`;
}

/** Converts Advanced SubStation Alpha (ASS/SSA) `Dialogue` events to WebVTT (style tags dropped). */
export function assToVtt(ass: string): string {
  let format: string[] = [
    "layer",
    "start",
    "end",
    "style",
    "name",
    "marginl",
    "marginr",
    "marginv",
    "effect",
    "text",
  ];
  let inEvents = false;
  const cues: string[] = [];
  for (const raw of normalizeNewlines(ass).split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) {
      inEvents = line.toLowerCase() === "[events]";
      continue;
    }
    if (!inEvents) continue;
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "format") {
      format = value.split(",").map((f) => f.trim().toLowerCase());
      continue;
    }
    if (key !== "dialogue") continue;
    const parts = value.split(",");
    const fields = parts.slice(0, format.length - 1);
    fields.push(parts.slice(format.length - 1).join(","));
    const get = (k: string) => fields[format.indexOf(k)] ?? "";
    const text = get("text").replace(/\{[^}]*\}/g, "").replace(/\\[Nn]/g, "\n").replace(/\\h/g, " ").trim();
    cues.push(`${assTime(get("start"))} --> ${assTime(get("end"))}\n${text}`);
  }
  return "WEBVTT\n\n" + cues.join("\n\n") + (cues.length ? "\n" : "");
}
