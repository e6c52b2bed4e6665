// This module is browser-compatible.
/** Wire shapes of publishing posts for a static-site generator (docs/api.md). */

/** Front-matter formats: `---` YAML, `+++` TOML, `{` JSON. */
export type FrontMatterFormat = "yaml" | "toml" | "json";

/** The "Site" card of the global settings. */
export interface SiteSettings {
  enabled: boolean;
  /** The site folder, a vpath from the files root (it must lie inside the scope of the admin who sets it). */
  path: string;
  /** Content folder, relative to the site folder. */
  contentDir: string;
  /** Archetypes folder, relative to the site folder. */
  archetypesDir: string;
  /** "detect" accepts the three formats; a fixed format also shapes posts whose archetype has none. */
  frontMatter: "detect" | FrontMatterFormat;
  /** Build command (argv words), run after a publish when command execution is enabled; [] = none. */
  build: string[];
}

/** What the files page needs to offer publishing to the current user (GET /api/publish/site). */
export interface SiteInfo {
  enabled: boolean;
  /** The content folder as a vpath of the user's scope; null when off or outside the scope. */
  content: string | null;
  /** A build command runs after publishing. */
  build: boolean;
}

/** An archetype offered by the new-post prompt. */
export interface Archetype {
  name: string;
  /** The built-in default (the archetypes folder has no `default.md`). */
  builtin: boolean;
}

/** States of a publish schedule. */
export type ScheduleState = "scheduled" | "running" | "published" | "failed" | "cancelled";

/** A scheduled (or done) publication of one post; one record per post. */
export interface PublishSchedule {
  id: string;
  userId: number;
  /** The post, a vpath of the scheduling user's scope. */
  path: string;
  /** The publication date written into the front matter (ISO 8601 with offset). */
  date: string;
  /** The same moment in milliseconds. */
  at: number;
  /** Bumped by every reschedule and cancel; queue messages of older versions are ignored. */
  version: number;
  state: ScheduleState;
  /** Error code of a failed run (`build_failed`, `no_front_matter`, `outside_content`, ...). */
  error?: string;
  /** Exit code of the build command, when one ran. */
  buildCode?: number;
  /** A build log is kept (GET /api/publish/schedules/{id}/log). */
  hasLog: boolean;
  updatedAt: number;
}

/** The publish state of one post (GET /api/publish/post). */
export interface PostInfo {
  path: string;
  /** null: the file has no front matter. */
  format: FrontMatterFormat | null;
  draft: boolean | null;
  date: string | null;
  schedule: PublishSchedule | null;
}

/** The output of the last build command of a schedule. */
export interface BuildLog {
  code: number;
  output: string;
  at: number;
}
