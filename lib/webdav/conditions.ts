/**
 * The WebDAV `If` header (RFC 4918 section 10.4) and the lock check every modifying method runs: the header
 * must evaluate to true (else 412), and every lock covering a changed resource must have its token submitted
 * by the user who holds it (else 423).
 */
import { BadRequestError, HttpError, LockedError } from "../errors.ts";
import { type DavLock, findLock, lockCovers, locksBelow, locksCovering } from "./locks.ts";

/** One condition of a list. */
export interface IfCondition {
  not: boolean;
  /** A state token (`<...>`), or null for an entity tag. */
  token: string | null;
  etag: string | null;
}

/** One parenthesised list, optionally tagged with a resource URL. */
export interface IfList {
  resource: string | null;
  conditions: IfCondition[];
}

function bad(): BadRequestError {
  return new BadRequestError("malformed If header", { code: "bad_if" });
}

/** Parses an If header; throws 400 when it is malformed. */
export function parseIf(header: string): IfList[] {
  const lists: IfList[] = [];
  let i = 0;
  let resource: string | null = null;
  let tagged: boolean | null = null;
  const skip = () => {
    while (i < header.length && /\s/.test(header[i])) i++;
  };
  const until = (ch: string) => {
    const end = header.indexOf(ch, i);
    if (end < 0) throw bad();
    const s = header.slice(i, end);
    i = end + 1;
    return s;
  };
  for (skip(); i < header.length; skip()) {
    if (header[i] === "<") {
      if (tagged === false) throw bad();
      tagged = true;
      i++;
      resource = until(">");
      skip();
      if (header[i] !== "(") throw bad();
      continue;
    }
    if (header[i] !== "(") throw bad();
    if (tagged === null) tagged = false;
    i++;
    const conditions: IfCondition[] = [];
    for (skip(); header[i] !== ")"; skip()) {
      if (i >= header.length) throw bad();
      let not = false;
      if (/^not\b/i.test(header.slice(i, i + 4))) {
        not = true;
        i += 3;
        skip();
      }
      if (header[i] === "<") {
        i++;
        conditions.push({ not, token: until(">"), etag: null });
      } else if (header[i] === "[") {
        i++;
        conditions.push({ not, token: null, etag: until("]") });
      } else throw bad();
    }
    i++;
    if (!conditions.length) throw bad();
    lists.push({ resource, conditions });
  }
  if (!lists.length) throw bad();
  return lists;
}

/** Every state token named in the lists (what the client submits, RFC 4918 section 10.4.1). */
export function submittedTokens(lists: readonly IfList[]): Set<string> {
  return new Set(lists.flatMap((l) => l.conditions.flatMap((c) => c.token ? [c.token] : [])));
}

/** What a list's resource looks like when the conditions are evaluated. */
export interface ResourceState {
  /** Real path segments, or null when the URL names nothing we can resolve. */
  segs: string[] | null;
  /** Current entity tag, or null when the resource does not exist. */
  etag: string | null;
}

/** Evaluates the header: true when at least one list holds. */
export async function evaluateIf(
  kv: Deno.Kv,
  lists: readonly IfList[],
  stateOf: (resource: string | null) => Promise<ResourceState>,
  now: number,
): Promise<boolean> {
  for (const list of lists) {
    const state = await stateOf(list.resource);
    let holds = true;
    for (const c of list.conditions) {
      let match: boolean;
      if (c.token !== null) {
        const lock = await findLock(kv, c.token, now);
        match = lock !== null && state.segs !== null && lockCovers(lock, state.segs);
      } else {
        const want = c.etag!.replace(/^W\//, "");
        match = state.etag !== null && state.etag === want;
      }
      if (match === c.not) {
        holds = false;
        break;
      }
    }
    if (holds) return true;
  }
  return false;
}

/** A resource a method is about to change. */
export interface Change {
  segs: string[];
  /** The change reaches the whole subtree (DELETE or MOVE of a collection, MOVE/COPY onto it). */
  subtree?: boolean;
}

/**
 * Throws 423 unless every lock covering a changed resource (or, for subtree changes, lying below it) has its
 * token in `submitted` and belongs to `userId`.
 */
export async function assertUnlocked(
  kv: Deno.Kv,
  changes: readonly Change[],
  options: { submitted: ReadonlySet<string>; userId: number; now: number },
): Promise<void> {
  for (const change of changes) {
    const locks: DavLock[] = await locksCovering(kv, change.segs, options.now);
    if (change.subtree) locks.push(...await locksBelow(kv, change.segs, options.now));
    for (const lock of locks) {
      if (!options.submitted.has(lock.token) || lock.userId !== options.userId) {
        throw new LockedError("locked", undefined, { headers: { "Content-Type": "text/plain" } });
      }
    }
  }
}

/** 412 for a false If header. */
export function preconditionFailed(): HttpError {
  return new HttpError(412, "precondition_failed");
}
