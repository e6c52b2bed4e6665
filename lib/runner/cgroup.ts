/**
 * Per-command cgroups: a pids group is the process limit when the server runs as root (RLIMIT_NPROC does not bind
 * uid 0), a memory group caps the memory of all the command's processes together (tmpfs pages included). Works
 * with writable cgroup v1 `pids`/`memory` hierarchies, or a cgroup v2 group whose children get the controllers.
 */

interface Mount {
  /** Path inside the hierarchy that is mounted (field 4 of mountinfo). */
  root: string;
  point: string;
  fsType: string;
  superOptions: string[];
}

function unescapeMount(s: string): string {
  return s.replace(/\\([0-7]{3})/g, (_, oct) => String.fromCharCode(parseInt(oct, 8)));
}

function parseMountinfo(text: string): Mount[] {
  const out: Mount[] = [];
  for (const line of text.split("\n")) {
    const [left, right] = line.split(" - ");
    if (!right) continue;
    const f = left.split(" ");
    const r = right.split(" ");
    out.push({
      root: unescapeMount(f[3]),
      point: unescapeMount(f[4]),
      fsType: r[0],
      superOptions: r[2]?.split(",") ?? [],
    });
  }
  return out;
}

/** The directory of our own group in `mount`, given our path in that hierarchy. */
function ownDir(mount: Mount, path: string): string | null {
  const rel = mount.root === "/" ? path : path.startsWith(mount.root) ? path.slice(mount.root.length) : null;
  if (rel === null) return null;
  return (mount.point + (rel === "/" ? "" : rel)).replace(/\/+$/, "") || "/";
}

/** A controller whose per-command groups cap one resource. */
type Controller = "pids" | "memory";

/** The file of a child group that sets its limit, per controller and cgroup version. */
const LIMIT_FILES: Record<Controller, { v1: string; v2: string }> = {
  pids: { v1: "pids.max", v2: "pids.max" },
  memory: { v1: "memory.limit_in_bytes", v2: "memory.max" },
};

async function canCreateChild(parent: string, file: string, value: string): Promise<boolean> {
  const probe = `${parent}/fb-probe-${crypto.randomUUID()}`;
  try {
    await Deno.mkdir(probe);
  } catch {
    return false;
  }
  try {
    await Deno.writeTextFile(`${probe}/${file}`, value);
    return true;
  } catch {
    return false;
  } finally {
    await Deno.remove(probe).catch(() => {});
  }
}

/** Where this process may create limited child groups: one parent directory per controller, or null. */
export interface CgroupParents {
  pids: string | null;
  memory: string | null;
  /** The hierarchy of each parent: version 1 (one per controller) or 2 (unified). */
  version: { pids: 1 | 2 | null; memory: 1 | 2 | null };
}

async function findParent(
  controller: Controller,
  mounts: Mount[],
  groups: { id: string; controllers: string[]; path: string }[],
  probeValue: string,
): Promise<{ dir: string; version: 1 | 2 } | null> {
  const v1 = groups.find((g) => g.controllers.includes(controller));
  if (v1) {
    for (const m of mounts.filter((m) => m.fsType === "cgroup" && m.superOptions.includes(controller))) {
      const dir = ownDir(m, v1.path);
      if (dir && await canCreateChild(dir, LIMIT_FILES[controller].v1, probeValue)) {
        return { dir, version: 1 };
      }
    }
  }
  const v2 = groups.find((g) => g.id === "0" && g.controllers[0] === "");
  if (v2) {
    for (const m of mounts.filter((m) => m.fsType === "cgroup2")) {
      const dir = ownDir(m, v2.path);
      if (dir && await canCreateChild(dir, LIMIT_FILES[controller].v2, probeValue)) {
        return { dir, version: 2 };
      }
    }
  }
  return null;
}

/** The pids and memory cgroups under which this process may create limited child groups (null: none). */
export async function findCgroups(): Promise<CgroupParents> {
  const none: CgroupParents = { pids: null, memory: null, version: { pids: null, memory: null } };
  let mountinfo: string, self: string;
  try {
    [mountinfo, self] = await Promise.all([
      Deno.readTextFile("/proc/self/mountinfo"),
      Deno.readTextFile("/proc/self/cgroup"),
    ]);
  } catch {
    return none;
  }
  const mounts = parseMountinfo(mountinfo);
  const groups = self.split("\n").filter(Boolean).map((l) => {
    const [id, controllers, ...path] = l.split(":");
    return { id, controllers: controllers.split(","), path: path.join(":") };
  });
  const pids = await findParent("pids", mounts, groups, "8");
  const memory = await findParent("memory", mounts, groups, String(64 * 1024 * 1024));
  return {
    pids: pids?.dir ?? null,
    memory: memory?.dir ?? null,
    version: { pids: pids?.version ?? null, memory: memory?.version ?? null },
  };
}

/** One command's cgroups: a directory per hierarchy it joins (one with cgroup v2). */
export interface CommandGroup {
  /** The directories whose `cgroup.procs` the command joins before it starts. */
  dirs: string[];
  /** Removes the groups once their processes are gone (retries briefly; a leftover empty group is harmless). */
  remove(): Promise<void>;
}

/** What {@link createCommandGroup} limits; a null parent or limit leaves that controller out. */
export interface CommandGroupOptions {
  parents: Pick<CgroupParents, "pids" | "memory" | "version">;
  maxPids?: number;
  /** Bytes of memory (page cache and tmpfs pages included) of all the command's processes together. */
  maxMemory?: number;
}

async function removeDir(dir: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    try {
      await Deno.remove(dir);
      return;
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return;
      // Busy while the last killed processes are being reaped.
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/** Limit files of a memory group: the cap, no swap beyond it, and (v2) the whole group killed on OOM. */
function memoryFiles(version: 1 | 2, bytes: number): [string, string, boolean][] {
  const n = String(bytes);
  if (version === 1) return [["memory.limit_in_bytes", n, true], ["memory.memsw.limit_in_bytes", n, false]];
  return [["memory.max", n, true], ["memory.swap.max", "0", false], ["memory.oom.group", "1", false]];
}

/**
 * Creates the command's child groups: with cgroup v2 one group holding both limits, with v1 one group in each
 * hierarchy. A limit file that must exist and cannot be written removes what was made and throws.
 */
export async function createCommandGroup(options: CommandGroupOptions): Promise<CommandGroup> {
  const { parents } = options;
  const files = new Map<string, [string, string, boolean][]>();
  const add = (parent: string | null, list: [string, string, boolean][]) => {
    if (parent !== null) files.set(parent, [...(files.get(parent) ?? []), ...list]);
  };
  if (options.maxPids) add(parents.pids, [["pids.max", String(options.maxPids), true]]);
  if (options.maxMemory && parents.version.memory) {
    add(parents.memory, memoryFiles(parents.version.memory, options.maxMemory));
  }
  const dirs: string[] = [];
  const remove = async () => {
    for (const dir of dirs) await removeDir(dir);
  };
  try {
    for (const [parent, list] of files) {
      const dir = `${parent}/fb-exec-${crypto.randomUUID()}`;
      await Deno.mkdir(dir);
      dirs.push(dir);
      for (const [file, value, required] of list) {
        await Deno.writeTextFile(`${dir}/${file}`, value).catch((err) => {
          if (required) throw err;
        });
      }
    }
  } catch (err) {
    await remove();
    throw err;
  }
  return { dirs, remove };
}
