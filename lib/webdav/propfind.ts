/**
 * PROPFIND with Depth 0 or 1 (infinity is refused with 403 and `propfind-finite-depth`, RFC 4918 9.1). A
 * folder's answer streams: its entries come from the listing snapshot (cached like the Files API's) and are
 * rendered a chunk at a time, so a 100k-entry folder never becomes one string. Entries the user may not see
 * (rules, hidden dot-files, links leaving the scope) are left out, as in listings.
 */
import { NotFoundError } from "../errors.ts";
import { childVisibility, realVpathOf, resolveScoped, scopedChild, type ScopedPath } from "../fs/gate.ts";
import { type DirSnapshot, KIND_DIR, KIND_LINK, scanDirectory } from "../fs/listing_snapshot.ts";
import { visibilityKey } from "../fs/listing_json.ts";
import { vpathBase } from "../fs/path.ts";
import { type DavContext, encodeSegment, hrefOf, segsOf } from "./context.ts";
import { getChildDeadProps, getDeadProps } from "./dead_props.ts";
import { type DavLock, locksBelow, locksCovering } from "./locks.ts";
import { type EntryFacts, MULTISTATUS_END } from "./props_xml.ts";
import { gzipStream, keptGzip, wantsGzip } from "./propfind_gzip.ts";
import { entryXml, multistatusStart, parsePropfind, type PropRequest } from "./propfind_xml.ts";
import { DAV_NS, parseXmlBody, readXmlText } from "./xml.ts";

const CHUNK = 500;
/** Folders with fewer entries are answered uncompressed. */
const GZIP_MIN_ENTRIES = 64;
const encoder = new TextEncoder();

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

/** Answers a PROPFIND. */
export async function propfind(ctx: DavContext): Promise<Response> {
  const depth = (ctx.request.headers.get("Depth") ?? "infinity").trim().toLowerCase();
  if (depth !== "0" && depth !== "1") {
    return new Response(
      '<?xml version="1.0" encoding="utf-8"?>\n<error xmlns="DAV:"><propfind-finite-depth/></error>\n',
      { status: 403, headers: { "Content-Type": "application/xml; charset=utf-8" } },
    );
  }
  const text = await readXmlText(ctx.request);
  const p = await resolveScoped(ctx.fs.gate, ctx.vpath, "read");
  if (p.lstat === null || p.stat === null) throw new NotFoundError();
  // The body is parsed once the path passed the gate (rules, hidden files) and exists.
  const req = parsePropfind(parseXmlBody(text));
  const now = ctx.now();
  const wantsLocks = req.kind !== "prop" ||
    req.props.some((x) => x.ns === DAV_NS && x.name === "lockdiscovery");
  const segs = segsOf(p);
  const children = depth === "1" && p.stat.isDirectory;
  // The lookups do not depend on each other: one round of waiting, not five.
  const [selfLocks, selfDead, listed] = await Promise.all([
    wantsLocks ? locksCovering(ctx.kv, segs, now) : [],
    getDeadProps(ctx.kv, segs),
    children ? lookupChildren(ctx, p, req, { segs, wantsLocks, now }) : null,
  ]);
  const head = multistatusStart(req) + entryXml(factsOfStat(p, ctx), req, selfDead, selfLocks, now);
  const headers: Record<string, string> = { "Content-Type": "application/xml; charset=utf-8" };
  if (listed === null) return new Response(head + MULTISTATUS_END, { status: 207, headers });
  headers["Vary"] = "Accept-Encoding";
  const gzip = listed.snap.names.length >= GZIP_MIN_ENTRIES && wantsGzip(ctx.request, ctx.peer);
  if (gzip) headers["Content-Encoding"] = "gzip";
  const body = await childrenBody(ctx, p, req, listed, { head, selfLocks, wantsLocks, now, gzip });
  return new Response(body, { status: 207, headers });
}

/** What a Depth 1 answer reads besides the folder itself. */
interface Listed {
  snap: DirSnapshot;
  dead: Map<string, Map<string, string>>;
  below: DavLock[];
}

async function lookupChildren(
  ctx: DavContext,
  dir: ScopedPath,
  req: PropRequest,
  options: { segs: string[]; wantsLocks: boolean; now: number },
): Promise<Listed> {
  const { segs } = options;
  const [snap, dead, below] = await Promise.all([
    ctx.listings
      ? ctx.listings.snapshot(dir, { readHeaders: ctx.readHeaders ?? false, signal: ctx.request.signal })
      : scanDirectory({ real: dir.real, anchor: dir.confinement.anchor }, {
        readHeaders: false,
        signal: ctx.request.signal,
      }),
    req.kind === "prop" && !req.props.some((x) => x.ns !== DAV_NS)
      ? new Map<string, Map<string, string>>()
      : getChildDeadProps(ctx.kv, segs),
    options.wantsLocks ? locksBelow(ctx.kv, segs, options.now) : [],
  ]);
  return { snap, dead, below };
}

async function childrenBody(
  ctx: DavContext,
  dir: ScopedPath,
  req: PropRequest,
  listed: Listed,
  options: { head: string; selfLocks: DavLock[]; wantsLocks: boolean; now: number; gzip: boolean },
): Promise<ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>> {
  const { now } = options;
  const { snap, dead, below } = listed;
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
  const inherited = options.selfLocks.filter((l) => l.depth === "infinity");
  const locksOf = (name: string) =>
    inherited.concat(below.filter((l) => l.segs.length === segs.length + 1 && l.segs[segs.length] === name));
  // Hrefs of children: the folder's part is encoded once.
  const base = hrefOf(ctx, dir.vpath, true);
  const lockFree = !options.wantsLocks ||
    (inherited.length === 0 && !below.some((l) => l.segs.length === segs.length + 1));
  const kept = ctx.propfindCache;
  const key = kept && ctx.listings && snap.linkCount === 0 && dead.size === 0 && lockFree
    ? JSON.stringify([req, base, visibilityKey(dir, realBase)])
    : null;
  const hit = key === null ? null : kept?.get(snap, key) ?? null;
  const head = encoder.encode(options.head);
  if (hit !== null) {
    const end = encoder.encode(MULTISTATUS_END);
    return options.gzip ? await keptGzip(hit, head, end) : chunkStream([head, ...hit, end]);
  }
  const changes = snap.changes;
  const rendered: Uint8Array[] = [];
  let i = 0;
  let started = false;
  const stream = new ReadableStream<Uint8Array>({
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
        if (key !== null) kept?.keep(snap, key, changes, rendered);
        controller.enqueue(encoder.encode(MULTISTATUS_END));
        controller.close();
      }
    },
  });
  return options.gzip ? gzipStream(stream) : stream;
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
