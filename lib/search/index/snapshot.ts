/**
 * The search index on disk (docs/architecture.md#search-index): one binary file written atomically (a
 * temporary file renamed over the old one) so a restart is warm. Layout, little-endian:
 *
 *   0  magic "FBSEARCH" | 8 u32 version | 12 u32 entries n | 16 u32 folders | 20 u32 root bytes
 *   24 u32 name bytes | 28 SHA-256 of everything after the header (32 bytes) | 60 body:
 *   root path (UTF-8) | parent ids (i32 × n) | flags (u8 × n) | folder mtimes (f64 × folders, in id order) |
 *   names (UTF-8, each followed by NUL; the root's is empty)
 *
 * Entries are written depth-first with siblings in name order, so ids are dense, every parent comes before
 * its children and a folder's children come in name order. `decodeSnapshot` trusts nothing: any mismatch
 * (size, checksum, structure, names) returns a reason instead of a tree.
 */
import { openFile, remove, rename, serverPath } from "../../fs/floor.ts";
import { compareBytes } from "../../fs/sort.ts";
import { ALIVE, DIR, DOT, type IndexTree, KIND } from "./tree.ts";

const MAGIC = "FBSEARCH";
/** Bump on any layout change: an older or newer file is then ignored and the tree walked again. */
export const SNAPSHOT_VERSION = 1;
const HEADER = 60;
/** Files larger than this are not read at all (about 40× the size of a 1M-entry snapshot). */
const MAX_BYTES = 2 ** 30;

/** A decoded snapshot, ready for `IndexTree.adopt`. */
export interface SnapshotData {
  root: string;
  n: number;
  parent: Int32Array;
  flags: Uint8Array;
  mtime: Float64Array;
  names: string;
  starts: Uint32Array;
}

async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
}

/** The snapshot bytes of `tree` (whose real root is `root`). */
export async function encodeSnapshot(tree: IndexTree, root: string): Promise<Uint8Array> {
  // Depth-first renumbering: old id → new id, in the order children are linked (name order).
  const order: number[] = [];
  const stack = [0];
  while (stack.length) {
    const id = stack.pop()!;
    order.push(id);
    const kids: number[] = [];
    for (let c = tree.firstChild[id]; c !== -1; c = tree.nextSibling[c]) kids.push(c);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  const n = order.length;
  const renum = new Int32Array(tree.size);
  const parent = new Int32Array(n), flags = new Uint8Array(n), names: string[] = new Array(n);
  const mtimes: number[] = [];
  for (let i = 0; i < n; i++) {
    const id = order[i];
    renum[id] = i;
    parent[i] = i === 0 ? -1 : renum[tree.parent[id]];
    flags[i] = tree.flags[id];
    names[i] = i === 0 ? "" : tree.names.get(id);
    if (flags[i] & DIR) mtimes.push(tree.mtime[id]);
  }
  const enc = new TextEncoder();
  const rootBytes = enc.encode(root);
  const nameBytes = enc.encode(names.join("\0") + "\0");
  const size = HEADER + rootBytes.length + n * 5 + mtimes.length * 8 + nameBytes.length;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(enc.encode(MAGIC), 0);
  [SNAPSHOT_VERSION, n, mtimes.length, rootBytes.length, nameBytes.length].forEach((v, i) =>
    view.setUint32(8 + 4 * i, v, true)
  );
  let at = HEADER;
  out.set(rootBytes, at);
  at += rootBytes.length;
  for (let i = 0; i < n; i++, at += 4) view.setInt32(at, parent[i], true);
  out.set(flags, at);
  at += n;
  for (const m of mtimes) view.setFloat64(at, m, true), at += 8;
  out.set(nameBytes, at);
  out.set(await sha256(out.subarray(HEADER)), 28);
  return out;
}

/** The snapshot in `bytes`, or why it cannot be used. */
export async function decodeSnapshot(bytes: Uint8Array): Promise<SnapshotData | string> {
  if (bytes.length < HEADER) return "truncated header";
  if (new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) return "not a search index snapshot";
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [version, n, folders, rootLen, nameLen] = [0, 1, 2, 3, 4].map((i) => view.getUint32(8 + 4 * i, true));
  if (version !== SNAPSHOT_VERSION) return `format version ${version}, expected ${SNAPSHOT_VERSION}`;
  // Plain numbers: no overflow, so huge declared lengths simply fail to add up.
  if (n < 1 || HEADER + rootLen + n * 5 + folders * 8 + nameLen !== bytes.length) {
    return "sizes do not add up";
  }
  const sum = await sha256(bytes.subarray(HEADER));
  if (sum.some((b, i) => b !== bytes[28 + i])) return "checksum mismatch";
  let at = HEADER;
  const dec = new TextDecoder("utf-8", { fatal: true });
  let root: string, names: string;
  try {
    root = dec.decode(bytes.subarray(at, at + rootLen));
    names = dec.decode(bytes.subarray(at + rootLen + n * 5 + folders * 8));
  } catch {
    return "invalid UTF-8";
  }
  at += rootLen;
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++, at += 4) parent[i] = view.getInt32(at, true);
  const flags = bytes.slice(at, at + n);
  at += n;
  const mtime = new Float64Array(n).fill(NaN);
  const starts = new Uint32Array(n + 1);
  let pos = 0, dirs = 0;
  for (let i = 0; i < n; i++) {
    const end = names.indexOf("\0", pos);
    if (end < 0) return "too few names";
    starts[i] = pos;
    pos = end + 1;
    if (flags[i] & DIR) {
      if (dirs >= folders) return "too many folders";
      mtime[i] = view.getFloat64(at + 8 * dirs++, true);
    }
  }
  starts[n] = pos;
  if (pos !== names.length || dirs !== folders) return "name or folder count mismatch";
  const bad = checkTree(n, parent, flags, names, starts);
  return bad ?? { root, n, parent, flags, mtime, names, starts };
}

/** Why the decoded arrays do not form a valid tree, or null. */
function checkTree(n: number, parent: Int32Array, flags: Uint8Array, names: string, starts: Uint32Array) {
  if (parent[0] !== -1 || flags[0] !== (ALIVE | DIR) || starts[1] !== 1) return "bad root";
  // The last child seen per folder: siblings must come in strictly increasing name order.
  const lastChild = new Int32Array(n).fill(-1);
  const nameOf = (i: number) => names.slice(starts[i], starts[i + 1] - 1);
  for (let i = 1; i < n; i++) {
    const p = parent[i], f = flags[i];
    if (p < 0 || p >= i || !(flags[p] & DIR)) return `bad parent of entry ${i}`;
    if (!(f & ALIVE) || f & ~(KIND | DOT)) return `bad flags of entry ${i}`;
    const name = nameOf(i);
    if (name === "" || name === "." || name === ".." || name.includes("/")) return `bad name of entry ${i}`;
    if (((f & DOT) !== 0) !== name.startsWith(".")) return `bad flags of entry ${i}`;
    const prev = lastChild[p];
    if (prev >= 0 && compareBytes(nameOf(prev), name) >= 0) return `bad sibling order at entry ${i}`;
    lastChild[p] = i;
  }
  return null;
}

/**
 * Reads and decodes the snapshot of the tree at `root` from `path`: null when there is none, a reason when it
 * is unusable.
 */
export async function readSnapshot(path: string, root: string): Promise<SnapshotData | string | null> {
  let file: Deno.FsFile;
  try {
    // The snapshot file is the server's (never a user's path); a FIFO there is refused, not waited on.
    file = await openFile(serverPath(path));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    return `cannot open: ${err instanceof Error ? err.message : err}`;
  }
  try {
    const st = await file.stat();
    if (!st.isFile || st.size > MAX_BYTES) return "not a regular file of plausible size";
    const bytes = new Uint8Array(st.size);
    let got = 0;
    while (got < bytes.length) {
      const r = await file.read(bytes.subarray(got));
      if (r === null) return "file shrank while read";
      got += r;
    }
    const data = await decodeSnapshot(bytes);
    return typeof data === "string" || data.root === root ? data : `written for ${data.root}`;
  } catch (err) {
    return `cannot read: ${err instanceof Error ? err.message : err}`;
  } finally {
    file.close();
  }
}

/**
 * Writes `bytes` to `path` atomically (creating its folder): a temporary file next to it, flushed, then
 * renamed over it.
 */
export async function writeSnapshot(path: string, bytes: Uint8Array): Promise<void> {
  const tmp = `${path}.${Deno.pid}.tmp`;
  try {
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")) || "/", { recursive: true });
    const file = await openFile(serverPath(tmp), { write: true, create: true, truncate: true, mode: 0o600 });
    try {
      let done = 0;
      while (done < bytes.length) done += await file.write(bytes.subarray(done));
      await file.sync();
    } finally {
      file.close();
    }
    await rename(serverPath(tmp), serverPath(path));
  } catch (err) {
    await remove(serverPath(tmp)).catch(() => {});
    throw err;
  }
}
