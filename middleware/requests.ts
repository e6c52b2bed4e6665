/** Request parsing shared by routes: the vpath of `[...path]`, downloads (raw, public download), public shares. */
import type { AppContext } from "../define.ts";
import { vpathOfParam } from "../lib/request_path.ts";
import type { RawRequest } from "../lib/fs/raw.ts";
import { splitSharePath } from "../lib/share_access.ts";
import { clientAddress } from "./conn.ts";
import { NotFoundError } from "../lib/errors.ts";

/** The vpath a `[...path]` route addresses (lib/request_path.ts). */
export function vpathOf(c: AppContext): string {
  return vpathOfParam(c.req.param("path"));
}

/**
 * The query and conditional/range headers of a download (docs/api.md#downloads). The abort signal (which aborts
 * only when the client leaves: deno.json opts out of Deno's legacy abort after every answer) is read only when an
 * archive asks for it.
 */
export function rawRequestOf(c: AppContext): RawRequest {
  return {
    inline: c.req.query("inline") === "true",
    files: c.req.query("files"),
    algo: c.req.query("algo"),
    range: c.req.header("Range"),
    ifNoneMatch: c.req.header("If-None-Match"),
    ifModifiedSince: c.req.header("If-Modified-Since"),
    ifUnmodifiedSince: c.req.header("If-Unmodified-Since"),
    ifRange: c.req.header("If-Range"),
    get signal() {
      return c.req.raw.signal;
    },
  };
}

/** Hash, sub-path and credentials of a public share request (docs/api.md#public-shares). */
export function shareRequestOf(c: AppContext) {
  return {
    ...splitSharePath(c.req.param("path") ?? ""),
    credentials: {
      password: c.req.header("X-SHARE-PASSWORD"),
      token: c.req.query("token"),
      client: clientAddress(c),
    },
  };
}

/** The `:id` of a user route: a positive whole number, else 404. */
export function userIdParam(c: AppContext): number {
  const id = Number(c.req.param("id"));
  if (!Number.isSafeInteger(id) || id < 1) throw new NotFoundError("user_not_found");
  return id;
}
