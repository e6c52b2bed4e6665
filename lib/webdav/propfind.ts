/**
 * PROPFIND with Depth 0 or 1 (infinity is refused with 403 and `propfind-finite-depth`, RFC 4918 9.1). A
 * folder's answer streams: its entries come from the listing snapshot (cached like the Files API's) and are
 * rendered a chunk at a time, so a 100k-entry folder never becomes one string. Entries the user may not see
 * (rules, hidden dot-files, links leaving the scope) are left out, as in listings.
 */
import { HttpError, NotFoundError } from "../errors.ts";
import { childVisibility, realVpathOf, resolveScoped, scopedChild, type ScopedPath } from "../fs/gate.ts";
import { KIND_DIR, KIND_LINK, scanDirectory } from "../fs/listing_snapshot.ts";
import { visibilityKey } from "../fs/listing_json.ts";
import { vpathBase } from "../fs/path.ts";
import { type DavContext, encodeSegment, hrefOf, segsOf } from "./context.ts";
import { clarkName, getChildDeadProps, getDeadProps } from "./dead_props.ts";
import { type DavLock, locksBelow, locksCovering } from "./locks.ts";
import {
  emptyPropXml,
  type EntryFacts,
  LIVE_PROPS,
  livePropXml,
  MULTISTATUS_END,
  MULTISTATUS_START,
  propstatXml,
  splitClark,
} from "./props_xml.ts";
import { keepChildren, keptChildren } from "./propfind_cache.ts";
import { childElements, DAV_NS, readXmlBody, type XmlElement } from "./xml.ts";

/** What the client asked for. */
type PropRequest =
  | { kind: "allprop"; include: { ns: string; name: string }[] }
  | { kind: "propname" }
  | { kind: "prop"; props: { ns: string; name: string }[] };

const CHUNK = 500;
const encoder = new TextEncoder();

function parsePropfind(root: XmlElement | null): PropRequest {
  if (root === null) return { kind: "allprop", include: [] };
  if (root.ns !== DAV_NS || root.name !== "propfind") throw new HttpError(400, "bad_propfind");
  const [first] = childElements(root, DAV_NS);
  if (!first) throw new HttpError(400, "bad_propfind");
  const names = (el: XmlElement | undefined) =>
    el ? childElements(el).map((c) => ({ ns: c.ns, name: c.name })) : [];
  if (first.name === "propname") return { kind: "propname" };
  if (first.name === "allprop") {
    return { kind: "allprop", include: names(childElements(root, DAV_NS, "include")[0]) };
  }
  if (first.name === "prop") return { kind: "prop", props: names(first) };
  throw new HttpError(400, "bad_propfind");
}

function factsOfStat(p: ScopedPath, ctx: DavContext): EntryFacts {
  const stat = p.stat ?? p.lstat!;
  const mtimeMs = stat.mtime?.getTime() ?? 0;
  return {
    name: vpathBase(p.vpath),
    href: hrefOf(ctx, p.vpath, stat.isDirectory),
    isDir: stat.isDirectory,
    size: stat.isDirectory ? 0 : stat.size,
    mtimeMs,
    createdMs: stat.birthtime?.getTime() ?? mtimeMs,
  };
}

/** The `<D:response>` of one entry. */
export function entryXml(
  e: EntryFacts,
  req: PropRequest,
  dead: Map<string, string> | undefined,
  locks: readonly DavLock[],
  now: number,
): string {
  const found: string[] = [];
  const missing: string[] = [];
  if (req.kind === "propname") {
    for (const n of LIVE_PROPS) if (livePropXml(n, e, locks, now) !== null) found.push(`<D:${n}/>`);
    for (const clark of dead?.keys() ?? []) {
      const { ns, name } = splitClark(clark);
      found.push(emptyPropXml(ns, name));
    }
  } else if (req.kind === "allprop") {
    for (const n of LIVE_PROPS) {
      const x = livePropXml(n, e, locks, now);
      if (x !== null) found.push(x);
    }
    for (const v of dead?.values() ?? []) found.push(v);
  } else {
    for (const { ns, name } of req.props) {
      const x = ns === DAV_NS ? livePropXml(name, e, locks, now) : null;
      const d = x === null ? dead?.get(clarkName(ns, name)) : undefined;
      if (x !== null) found.push(x);
      else if (d !== undefined) found.push(d);
      else missing.push(emptyPropXml(ns, name));
    }
  }
  const href = e.href.includes("&") ? e.href.replace(/&/g, "&amp;") : e.href;
  let out = `<D:response><D:href>${href}</D:href>`;
  if (found.length || !missing.length) out += propstatXml(found.join(""), "200 OK");
  if (missing.length) out += propstatXml(missing.join(""), "404 Not Found");
  return out + "</D:response>";
}

/** Answers a PROPFIND. */
export async function propfind(ctx: DavContext): Promise<Response> {
  const depth = (ctx.request.headers.get("Depth") ?? "infinity").trim().toLowerCase();
  if (depth !== "0" && depth !== "1") {
    return new Response(
      '<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:"><D:propfind-finite-depth/></D:error>\n',
      { status: 403, headers: { "Content-Type": "application/xml; charset=utf-8" } },
    );
  }
  const req = parsePropfind(await readXmlBody(ctx.request));
  const p = await resolveScoped(ctx.fs.gate, ctx.vpath, "read");
  if (p.lstat === null || p.stat === null) throw new NotFoundError();
  const now = ctx.now();
  const wantsLocks = req.kind !== "prop" ||
    req.props.some((x) => x.ns === DAV_NS && x.name === "lockdiscovery");
  const segs = segsOf(p);
  const selfLocks = wantsLocks ? await locksCovering(ctx.kv, segs, now) : [];
  const head = MULTISTATUS_START +
    entryXml(factsOfStat(p, ctx), req, await getDeadProps(ctx.kv, segs), selfLocks, now);
  const headers = { "Content-Type": "application/xml; charset=utf-8" };
  if (depth === "0" || !p.stat.isDirectory) {
    return new Response(head + MULTISTATUS_END, { status: 207, headers });
  }
  const body = await childrenStream(ctx, p, req, { head, selfLocks, wantsLocks, now });
  return new Response(body, { status: 207, headers });
}

async function childrenStream(
  ctx: DavContext,
  dir: ScopedPath,
  req: PropRequest,
  options: { head: string; selfLocks: DavLock[]; wantsLocks: boolean; now: number },
): Promise<ReadableStream<Uint8Array>> {
  const { now } = options;
  const snap = ctx.listings
    ? await ctx.listings.snapshot(dir, { readHeaders: false, signal: ctx.request.signal })
    : await scanDirectory(dir.real, { readHeaders: false, signal: ctx.request.signal });
  const conf = dir.confinement;
  const realBase = realVpathOf(dir);
  const checks = [
    childVisibility(conf, dir.vpath),
    ...realBase === null ? [] : [childVisibility(conf, realBase)],
  ];
  const visible = (i: number) =>
    checks.every((v) =>
      !v.none && !(v.hideDots && snap.dots[i]) && (v.allowed === null || v.allowed(snap.names[i]))
    );
  const segs = segsOf(dir);
  const dead = req.kind === "prop" && !req.props.some((x) => x.ns !== DAV_NS)
    ? new Map<string, Map<string, string>>()
    : await getChildDeadProps(ctx.kv, segs);
  const inherited = options.selfLocks.filter((l) => l.depth === "infinity");
  const below = options.wantsLocks ? await locksBelow(ctx.kv, segs, now) : [];
  const locksOf = (name: string) =>
    inherited.concat(below.filter((l) => l.segs.length === segs.length + 1 && l.segs[segs.length] === name));
  // Hrefs of children: the folder's part is encoded once.
  const base = hrefOf(ctx, dir.vpath, true);
  const lockFree = !options.wantsLocks ||
    (inherited.length === 0 && !below.some((l) => l.segs.length === segs.length + 1));
  const key = ctx.listings && snap.linkCount === 0 && dead.size === 0 && lockFree
    ? JSON.stringify([req, base, visibilityKey(dir, realBase)])
    : null;
  const hit = key === null ? null : keptChildren(snap, key);
  const head = encoder.encode(options.head);
  if (hit !== null) return chunkStream([head, ...hit, encoder.encode(MULTISTATUS_END)]);
  const changes = snap.changes;
  const rendered: Uint8Array[] = [];
  let i = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(head);
        return;
      }
      const parts: string[] = [];
      const end = Math.min(i + CHUNK, snap.names.length);
      for (; i < end; i++) {
        const name = snap.names[i];
        let facts: EntryFacts;
        if (snap.kinds[i] === KIND_LINK) {
          const child = await scopedChild(dir, name);
          if (child === null || child.lstat === null) continue;
          facts = factsOfStat(child, ctx);
        } else {
          if (!visible(i)) continue;
          const isDir = snap.kinds[i] === KIND_DIR;
          const mtimeMs = snap.mtimes[i];
          facts = {
            name,
            href: base + encodeSegment(name) + (isDir ? "/" : ""),
            isDir,
            size: snap.sizes[i],
            mtimeMs,
            createdMs: mtimeMs,
          };
        }
        parts.push(entryXml(facts, req, dead.get(name), locksOf(name), now));
      }
      if (parts.length) {
        const chunk = encoder.encode(parts.join(""));
        if (key !== null) rendered.push(chunk);
        controller.enqueue(chunk);
      }
      if (i >= snap.names.length) {
        if (key !== null) keepChildren(snap, key, changes, rendered);
        controller.enqueue(encoder.encode(MULTISTATUS_END));
        controller.close();
      }
    },
  });
}

/** A stream handing out shared chunks as they are read. */
function chunkStream(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(chunks[next++]);
      if (next === chunks.length) controller.close();
    },
  }, { highWaterMark: 0 });
}
