/**
 * Posts of the site: archetypes to start from, new posts, and the publish itself (front matter `draft: false` with
 * the date, written atomically, then the build command). Every path goes through the user's gate.
 */
import type { Config } from "../../config.ts";
import { BadRequestError, ConflictError, NotFoundError, PayloadTooLargeError } from "../errors.ts";
import { type EventHooks, withHooks } from "../hooks.ts";
import { writeFileAtomic } from "../fs/atomic.ts";
import { pinTarget, readDir, readTextFile } from "../fs/floor.ts";
import { assertPermission, type GateContext, resolveScoped, scopedChild, scopeDirOf } from "../fs/gate.ts";
import type { ScopedPath } from "../fs/gate.ts";
import { cleanVpath } from "../fs/path.ts";
import { type RecountDeps, recountUsage } from "../quota.ts";
import type { ExecEnv } from "../runner/run.ts";
import type { Store } from "../storage/mod.ts";
import type { Archetype, FrontMatterFormat, Settings, StoredUser } from "../types.ts";
import { BUILTIN_ARCHETYPES, expandArchetype, slugify } from "./archetype.ts";
import { type BuildResult, type BuildRunner, execBuildRunner } from "./build.ts";
import { addFrontMatter, editFrontMatter, findFrontMatter, type FrontMatterValues } from "./front_matter.ts";
import { readFrontMatter } from "./front_matter.ts";
import {
  archetypesRootPath,
  assertInContent,
  resolveContent,
  scopedVpathOf,
  siteOf,
  siteRootReal,
} from "./site.ts";
import { readSiteTitle } from "./site_config.ts";

/** What publishing needs from the app's dependencies. */
export interface PublishDeps {
  config: Pick<Config, "root" | "followExternalSymlinks" | "enableExec" | "publishNetwork">;
  kv: Deno.Kv;
  store: Store;
  hooks: EventHooks;
  now: () => number;
  /** Whether path rules fold case under the root (`AppDeps.foldCase`). */
  foldCase: () => Promise<boolean>;
  /** How commands run: the build runs confined the same way (none: no build). */
  exec?: ExecEnv | null;
  /** Replaces the confined build of `exec` (tests). Used only with exec enabled. */
  buildRunner?: BuildRunner;
  /** The usage cache and quota ledger: the site folder's usage is recounted after a build. */
  usage?: RecountDeps["usage"];
  quotaLedger?: RecountDeps["quotaLedger"];
}

/** One user's publishing request (or a scheduled run on their behalf). */
export interface PublishRequest {
  deps: PublishDeps;
  user: StoredUser;
  settings: Settings;
}

/** Largest post or archetype read into memory. */
export const MAX_POST_BYTES = 4 * 1024 * 1024;
const MAX_ARCHETYPES = 200;
const MAX_TITLE_LENGTH = 300;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const DEFAULT_ARCHETYPE = "default.md";

/** The gate context of a publishing request. */
export async function gateOf(req: PublishRequest): Promise<GateContext> {
  return {
    root: req.deps.config.root,
    user: req.user,
    globalRules: req.settings.rules,
    followExternalSymlinks: req.deps.config.followExternalSymlinks,
    foldCase: await req.deps.foldCase(),
  };
}

/** Parses an ISO 8601 date with an offset (the form front matter gets); 400 otherwise. */
export function parsePostDate(date: string): number {
  const at = ISO_DATE.test(date) ? Date.parse(date) : NaN;
  if (!Number.isFinite(at)) throw new BadRequestError(`invalid date "${date}"`, { code: "bad_date" });
  return at;
}

/** The current moment as an ISO 8601 date in UTC without milliseconds. */
export function isoNow(now: number): string {
  return new Date(Math.floor(now / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

async function readText(p: ScopedPath): Promise<string> {
  if ((p.stat?.size ?? 0) > MAX_POST_BYTES) throw new PayloadTooLargeError("post_too_large");
  // The file the gate checked, through the disk floor: a link swapped in since is refused (403), never read.
  using pin = pinTarget(p);
  return await readTextFile(pin);
}

async function archetypesDir(req: PublishRequest, gate: GateContext): Promise<ScopedPath | null> {
  const vpath = scopedVpathOf(req.user.scope, archetypesRootPath(siteOf(req.settings)));
  if (vpath === null) return null;
  // Archetypes the user cannot see (rules, hidden, missing) leave only the built-in default.
  const dir = await resolveScoped(gate, vpath, "read").catch(() => null);
  return dir?.stat?.isDirectory ? dir : null;
}

/** The archetypes a user can start a post from: the archetypes folder's files, `default.md` first. */
export async function listArchetypes(req: PublishRequest): Promise<Archetype[]> {
  assertPermission(req.user, "create");
  const gate = await gateOf(req);
  await resolveContent(gate, siteOf(req.settings), req.user);
  const dir = await archetypesDir(req, gate);
  const names: string[] = [];
  if (dir) {
    using folder = pinTarget(dir);
    for await (const e of readDir(folder)) {
      if (e.name.startsWith(".") || names.length >= MAX_ARCHETYPES) continue;
      const child = await scopedChild(dir, e.name);
      if (child?.stat?.isFile) names.push(e.name);
    }
  }
  names.sort((a, b) => a === DEFAULT_ARCHETYPE ? -1 : b === DEFAULT_ARCHETYPE ? 1 : a.localeCompare(b));
  const list = names.map((name) => ({ name, builtin: false }));
  return names[0] === DEFAULT_ARCHETYPE ? list : [{ name: DEFAULT_ARCHETYPE, builtin: true }, ...list];
}

async function archetypeText(req: PublishRequest, gate: GateContext, name: string): Promise<string> {
  const dir = await archetypesDir(req, gate);
  const child = dir && !name.includes("/") && !name.startsWith(".") ? await scopedChild(dir, name) : null;
  if (child?.stat?.isFile) return await readText(child);
  if (name !== DEFAULT_ARCHETYPE) throw new NotFoundError("archetype_not_found", `No archetype "${name}"`);
  const format = siteOf(req.settings).frontMatter;
  return BUILTIN_ARCHETYPES[format === "detect" ? "yaml" : format];
}

/** What the new-post prompt sends. */
export interface NewPostInput {
  archetype: string;
  title: string;
  /** Folder below the content folder ("" for its top). */
  section: string;
  /** Creation date (the user's clock and offset); default now in UTC. */
  date?: string;
}

/** Creates `content/<section>/<slug>.md` from an archetype, front matter filled (title, date, draft: true). */
export async function createPost(req: PublishRequest, input: NewPostInput): Promise<{ path: string }> {
  assertPermission(req.user, "create");
  const gate = await gateOf(req);
  const site = siteOf(req.settings);
  const content = await resolveContent(gate, site, req.user);
  const title = input.title.trim();
  if (!title || title.length > MAX_TITLE_LENGTH) {
    throw new BadRequestError("invalid title", { code: "bad_title" });
  }
  const slug = slugify(title);
  if (!slug) throw new BadRequestError(`no letters or digits in "${title}"`, { code: "bad_title" });
  const segments = input.section.split(/\/+/).filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) throw new BadRequestError("invalid section", { code: "bad_section" });
  const date = input.date ? input.date : isoNow(req.deps.now());
  parsePostDate(date);
  const vpath = cleanVpath([content.vpath, ...segments, `${slug}.md`].join("/")).path;
  const target = await resolveScoped(gate, vpath, "create");
  assertInContent(content, target);
  if (target.lstat !== null) throw new ConflictError("exists", `Cannot create "${vpath}": target exists`);
  const siteTitle = await readSiteTitle(
    await siteRootReal(req.deps.config.root, site),
    req.settings.branding.name,
  );
  const template = await archetypeText(req, gate, input.archetype);
  const text = expandArchetype(template, { name: slug, date, siteTitle, section: segments.join("/") });
  const fields = { title, date, draft: true };
  const format: FrontMatterFormat = site.frontMatter === "detect" ? "yaml" : site.frontMatter;
  const post = findFrontMatter(text) ? editFrontMatter(text, fields) : addFrontMatter(text, format, fields);
  const hook = { user: req.user, file: target.path, destination: scopeDirOf(gate) };
  await withHooks(
    req.deps.hooks,
    "upload",
    hook,
    () => writeFileAtomic(target, new TextEncoder().encode(post), { createParents: true }),
  );
  return { path: vpath };
}

/** A post resolved for publishing: its path, text and front matter (null when it has none). */
export interface ResolvedPost {
  post: ScopedPath;
  text: string;
  values: FrontMatterValues | null;
}

/** Resolves a post for publishing: `publish` permission, inside the content folder, an existing file. */
export async function resolvePost(req: PublishRequest, vpath: string): Promise<ResolvedPost> {
  assertPermission(req.user, "publish");
  const gate = await gateOf(req);
  const content = await resolveContent(gate, siteOf(req.settings), req.user);
  const post = await resolveScoped(gate, vpath, "publish");
  assertInContent(content, post);
  if (!post.stat) throw new NotFoundError();
  if (!post.stat.isFile) {
    throw new ConflictError("is_directory", `Cannot publish "${post.vpath}": it is a folder`);
  }
  const text = await readText(post);
  const values = readFrontMatter(text);
  const wanted = siteOf(req.settings).frontMatter;
  return { post, text, values: values && (wanted === "detect" || values.format === wanted) ? values : null };
}

/** Throws 400 `no_front_matter` for a post without (the configured) front matter. */
export function assertFrontMatter(resolved: ResolvedPost): void {
  if (!resolved.values) {
    throw new BadRequestError(`Cannot publish "${resolved.post.vpath}": no front matter`, {
      code: "no_front_matter",
    });
  }
}

/**
 * Publishes a post: `draft: false` and `date` written into its front matter (only those lines change; the write
 * is atomic, so a failure leaves the file as it was), then the build command when exec is enabled.
 */
export async function publishPost(
  req: PublishRequest,
  vpath: string,
  date: string,
): Promise<{ build?: BuildResult }> {
  parsePostDate(date);
  const resolved = await resolvePost(req, vpath);
  assertFrontMatter(resolved);
  const { post, text } = resolved;
  const next = editFrontMatter(text, { draft: false, date });
  const gate = await gateOf(req);
  const hook = { user: req.user, file: post.path, destination: scopeDirOf(gate) };
  await withHooks(req.deps.hooks, "save", hook, () => writeFileAtomic(post, new TextEncoder().encode(next)));
  const site = siteOf(req.settings);
  if (!req.deps.config.enableExec || site.build.length === 0) return {};
  const cwd = await siteRootReal(req.deps.config.root, site);
  if (cwd === null) return { build: { code: 1, output: `The site folder "${site.path}" is missing\n` } };
  const { exec, usage, quotaLedger } = req.deps;
  const run = req.deps.buildRunner ??
    (exec ? execBuildRunner(exec, { network: req.deps.config.publishNetwork }) : null);
  if (!run) return { build: { code: 1, output: "Command execution is not set up on this server\n" } };
  try {
    // floor-exempt: the files root's real path, the anchor the sandbox's mount of the site is opened beneath.
    const anchor = await Deno.realPath(req.deps.config.root);
    return { build: await run(site.build, { cwd, anchor, user: req.user }) };
  } catch (err) {
    return { build: { code: 1, output: `Cannot run the build command: ${(err as Error).message}\n` } };
  } finally {
    // What the build wrote counts against the quotas of the scopes around the site folder.
    if (usage && quotaLedger) {
      await recountUsage(
        { usage, quotaLedger },
        scopeDirOf({ root: req.deps.config.root, user: { scope: site.path } }),
      );
    }
  }
}
