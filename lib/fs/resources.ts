/** GET /api/resources (API.md §6.4): one file or a directory listing, with content, checksum or raw text. */
import { BadRequestError, NotFoundError } from "../errors.ts";
import type { Resource, Sorting } from "../types.ts";
import { checksumFile, parseChecksumAlgorithm } from "./checksum.ts";
import { resourceFields } from "./file_info.ts";
import { assertPermission, type GateContext, resolveScoped, scopedParent, type ScopedPath } from "./gate.ts";
import { listDirectory, readHeadSync } from "./listing.ts";
import { vpathBase } from "./path.ts";
import { findSubtitles } from "./subtitles.ts";

/** Options of {@link getResource}. */
export interface GetResourceOptions {
  /** The user's listing order. */
  sorting: Sorting;
  /** config.typeDetectionByHeader: sniff listing items whose extension is unknown. */
  readHeaders: boolean;
  /** `?checksum=` value ("" or undefined = none). */
  checksum?: string;
  /** `X-Encoding: true`: answer raw bytes for plain `text` files. */
  rawText?: boolean;
  signal?: AbortSignal;
}

/** Either the JSON resource or, for `X-Encoding: true` on a text file, the raw bytes. */
export type GetResourceResult = { resource: Resource; raw?: undefined } | {
  raw: Uint8Array<ArrayBuffer>;
  resource?: undefined;
};

/** Builds the top-level Resource of an existing path (link's own time/mode, target's size/isDir). */
export function describe(p: ScopedPath, options: { canModify: boolean; head?: Uint8Array }): Resource {
  if (p.lstat === null) throw new NotFoundError();
  return resourceFields({
    path: p.trailingSlash ? p.vpath + "/" : p.vpath,
    name: vpathBase(p.vpath),
    lstat: p.lstat,
    stat: p.stat,
    linkOwnTimes: true,
    canModify: options.canModify,
    head: options.head,
  });
}

async function readText(p: ScopedPath): Promise<string> {
  return new TextDecoder().decode(await Deno.readFile(p.real));
}

/** Looks up a path for GET /api/resources; throws 403/404 through the gate, 202 when download is needed. */
export async function getResource(
  ctx: GateContext,
  vpath: string,
  options: GetResourceOptions,
): Promise<GetResourceResult> {
  const p = await resolveScoped(ctx, vpath, "read");
  // A missing entry, or a link whose target is missing, is 404 for a direct request.
  if (p.lstat === null || p.stat === null) throw new NotFoundError();
  const isFile = !p.stat.isDirectory;
  const head = isFile && p.stat.isFile ? readHeadSync(p.real) : undefined;
  const self = describe(p, { canModify: ctx.user.perm.modify, head });
  if (!isFile) {
    return {
      resource: await listDirectory(p, self, {
        sorting: options.sorting,
        readHeaders: options.readHeaders,
        signal: options.signal,
      }),
    };
  }
  if (options.rawText) {
    assertPermission(ctx.user, "download");
    if (self.type === "text") return { raw: await Deno.readFile(p.real) };
  }
  if (self.type === "video") {
    const subtitles = await findSubtitles(p, await scopedParent(p));
    if (subtitles.length) self.subtitles = subtitles;
  }
  if (options.checksum) {
    assertPermission(ctx.user, "download");
    const algorithm = parseChecksumAlgorithm(options.checksum);
    // Reading a FIFO or device would block or never end.
    if (!p.stat.isFile) throw new BadRequestError("not a regular file", { code: "not_a_regular_file" });
    self.checksums = { [algorithm]: await checksumFile(p, algorithm) };
    return { resource: self };
  }
  if ((self.type === "text" || self.type === "textImmutable") && ctx.user.perm.download) {
    self.content = await readText(p);
  }
  return { resource: self };
}
