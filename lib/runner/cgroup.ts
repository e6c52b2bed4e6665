/**
 * Per-command pids cgroups: the process limit when the server runs as root (RLIMIT_NPROC does not bind uid 0).
 * Works with a writable cgroup v1 `pids` hierarchy, or a cgroup v2 group whose children get the pids controller.
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

async function canCreateChild(parent: string): Promise<boolean> {
  const probe = `${parent}/fb-probe-${crypto.randomUUID()}`;
  try {
    await Deno.mkdir(probe);
  } catch {
    return false;
  }
  try {
    await Deno.writeTextFile(`${probe}/pids.max`, "8");
    return true;
  } catch {
    return false;
  } finally {
    await Deno.remove(probe).catch(() => {});
  }
}

/** The pids cgroup directory under which this process may create limited child groups, or null. */
export async function findPidsCgroup(): Promise<string | null> {
  let mountinfo: string, self: string;
  try {
    [mountinfo, self] = await Promise.all([
      Deno.readTextFile("/proc/self/mountinfo"),
      Deno.readTextFile("/proc/self/cgroup"),
    ]);
  } catch {
    return null;
  }
  const mounts = parseMountinfo(mountinfo);
  const groups = self.split("\n").filter(Boolean).map((l) => {
    const [id, controllers, ...path] = l.split(":");
    return { id, controllers: controllers.split(","), path: path.join(":") };
  });
  const v1 = groups.find((g) => g.controllers.includes("pids"));
  if (v1) {
    for (const m of mounts.filter((m) => m.fsType === "cgroup" && m.superOptions.includes("pids"))) {
      const dir = ownDir(m, v1.path);
      if (dir && await canCreateChild(dir)) return dir;
    }
  }
  const v2 = groups.find((g) => g.id === "0" && g.controllers[0] === "");
  if (v2) {
    for (const m of mounts.filter((m) => m.fsType === "cgroup2")) {
      const dir = ownDir(m, v2.path);
      if (dir && await canCreateChild(dir)) return dir;
    }
  }
  return null;
}

/** One command's pids cgroup. */
export interface PidsGroup {
  dir: string;
  /** Removes the group once its processes are gone (retries briefly; a leftover empty group is harmless). */
  remove(): Promise<void>;
}

/** Creates a child group of `parent` that allows at most `maxPids` tasks. */
export async function createPidsGroup(parent: string, maxPids: number): Promise<PidsGroup> {
  const dir = `${parent}/fb-exec-${crypto.randomUUID()}`;
  await Deno.mkdir(dir);
  try {
    await Deno.writeTextFile(`${dir}/pids.max`, String(maxPids));
  } catch (err) {
    await Deno.remove(dir).catch(() => {});
    throw err;
  }
  return {
    dir,
    async remove() {
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
    },
  };
}
