/**
 * Confinement of commands with bubblewrap. `probeSandbox()` runs once at start: it finds `bwrap`, checks that it
 * can create namespaces here and decides how the process and memory limits are enforced. `sandboxArgv()` builds
 * the argv of one confined command: the user's scope is the only writable tree (mounted at its own path, so HOME,
 * the working directory, `$FILE` and `$DESTINATION` mean the same inside and outside), `/usr` and a few files of
 * `/etc` are read-only, `/tmp` and `/dev/shm` are small private tmpfs, `/dev` is read-only, and there are new
 * user, PID, IPC, UTS, cgroup and (unless allowed) network namespaces.
 */
import { type CgroupParents, createCommandGroup, findCgroups } from "./cgroup.ts";

/** How the number of processes of one command is capped. */
export type ProcessLimit =
  /** RLIMIT_NPROC set by `prlimit` inside a new user namespace (the server runs as a non-root user). */
  | "rlimit"
  /** A pids cgroup per command (the server runs as root, which RLIMIT_NPROC does not bind). */
  | "cgroup"
  /** Neither is available: only the time and output limits apply. */
  | "none";

/** How the memory of one command is capped. */
export type MemoryLimit =
  /** A memory cgroup per command (all its processes together), plus RLIMIT_DATA per process when prlimit exists. */
  | "cgroup"
  /** RLIMIT_DATA per process, set by `prlimit` inside the sandbox. */
  | "rlimit"
  /** Neither cgroups nor prlimit: no memory limit. */
  | "none";

/** What the start-up probe learnt about confinement on this host. */
export interface Sandbox {
  /** Absolute path of the bwrap binary. */
  bwrap: string;
  /** `bwrap --version`, e.g. "bubblewrap 0.8.0". */
  version: string;
  /** Top-level entries of the host recreated inside: symlinks into /usr (merged /usr) or read-only directories. */
  topLevel: { name: string; link: string | null }[];
  processLimit: ProcessLimit;
  memoryLimit: MemoryLimit;
  /** Absolute path of `prlimit` (run inside the sandbox: RLIMIT_DATA, RLIMIT_NPROC in "rlimit" mode, no cores). */
  prlimit: string | null;
  /** The cgroups under which each command gets its own groups (pids: "cgroup" process limit; memory). */
  cgroups: CgroupParents;
}

/** What one confined command needs. */
export interface SandboxOptions {
  /** Real path of the user's scope: bound read-write at the same path. */
  scope: string;
  /**
   * A descriptor of the scope folder the command inherits (the disk floor's pin): bound with `--bind-fd`, so a
   * scope swapped for a link after it was checked is not what gets mounted. Without it, `scope` is bound by path.
   */
  scopeFd?: number;
  /** Real path of the working directory, inside `scope`. */
  cwd: string;
  /** Program and arguments. */
  argv: string[];
  /** Keep the host network (`--exec-network`). */
  network: boolean;
  maxProcesses: number;
  /** Bytes of data one process may map (RLIMIT_DATA); the memory cgroup caps the whole command. */
  maxMemory: number;
  /** The command's own cgroups (pids, memory), joined before bwrap starts. */
  cgroups?: string[];
}

/** Files of /etc a shell, coreutils and git need. Never shadow, gshadow or sudoers. Each bind costs time. */
const ETC_FILES = [
  "passwd",
  "group",
  "nsswitch.conf",
  "localtime",
  "timezone",
  "alternatives",
  "ld.so.cache",
  "gitconfig",
  "mime.types",
  "os-release",
];
/** What name resolution and TLS clients need in addition, when commands may use the network. */
const NETWORK_ETC_FILES = [
  "resolv.conf",
  "hosts",
  "host.conf",
  "gai.conf",
  "protocols",
  "services",
  "ssl",
  "ca-certificates",
];
const TOP_LEVEL = ["bin", "sbin", "lib", "lib32", "lib64", "libx32"];
/** Size of the private /tmp (a tmpfs, so it is memory). */
const TMP_BYTES = 64 * 1024 * 1024;
/** Size of /dev/shm (POSIX shared memory and semaphores need it to exist; it is memory too). */
const SHM_BYTES = 16 * 1024 * 1024;
const BWRAP_PATHS = ["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"];
const PRLIMIT_PATHS = ["/usr/bin/prlimit", "/bin/prlimit"];

/** The argv (program first) that runs `options.argv` confined. */
export function sandboxArgv(sandbox: Sandbox, options: SandboxOptions): string[] {
  const args = [
    sandbox.bwrap,
    "--unshare-user",
    "--disable-userns",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    ...(options.network ? [] : ["--unshare-net"]),
    "--hostname",
    "sandbox",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--ro-bind",
    "/usr",
    "/usr",
  ];
  for (const t of sandbox.topLevel) {
    if (t.link !== null) args.push("--symlink", t.link, `/${t.name}`);
    else args.push("--ro-bind", `/${t.name}`, `/${t.name}`);
  }
  for (const f of options.network ? [...ETC_FILES, ...NETWORK_ETC_FILES] : ETC_FILES) {
    args.push("--ro-bind-try", `/etc/${f}`, `/etc/${f}`);
  }
  args.push("--proc", "/proc", "--dev", "/dev", "--size", String(TMP_BYTES), "--tmpfs", "/tmp");
  // bwrap's /dev is a tmpfs as large as half the host's memory: the writable part is a small /dev/shm instead.
  args.push("--size", String(SHM_BYTES), "--tmpfs", "/dev/shm");
  // The scope last: it may lie under /tmp (or anywhere), and a later mount wins.
  if (options.scopeFd !== undefined && options.scopeFd >= 0) {
    args.push("--bind-fd", String(options.scopeFd), options.scope);
  } else args.push("--bind", options.scope, options.scope);
  // Nothing else is writable: the root of the sandbox becomes read-only once every mount point exists, and so
  // do /dev (device nodes still work) and /proc (a server running as root runs commands as uid 0 without
  // capabilities, which /proc/sys would still let write host-wide settings such as kernel.core_pattern).
  args.push(
    "--remount-ro",
    "/",
    "--remount-ro",
    "/dev",
    "--remount-ro",
    "/proc",
    "--chdir",
    options.cwd,
    "--",
  );
  if (sandbox.prlimit) {
    const data = String(options.maxMemory);
    args.push(sandbox.prlimit, `--data=${data}:${data}`);
    if (sandbox.processLimit === "rlimit") {
      const n = String(options.maxProcesses);
      args.push(`--nproc=${n}:${n}`);
    }
    args.push("--core=0", "--");
  }
  args.push(...options.argv);
  return joinCgroups(options.cgroups ?? [], args);
}

/**
 * Wraps `argv` so that it joins the cgroups before anything runs: a shell writes its own pid into each group's
 * `cgroup.procs`, then becomes the program (same pid, so every process bwrap forks is in the groups too).
 */
export function joinCgroups(dirs: string[], argv: string[]): string[] {
  if (dirs.length === 0) return argv;
  const joins = dirs.map((_, i) => `echo $$ > "$${i + 1}/cgroup.procs"`).join(" && ");
  return ["/bin/sh", "-c", `${joins} && shift ${dirs.length} && exec "$@"`, "fb-cgroup", ...dirs, ...argv];
}

async function firstExisting(paths: string[]): Promise<string | null> {
  for (const p of paths) {
    if (await Deno.stat(p).then((s) => s.isFile, () => false)) return p;
  }
  return null;
}

async function topLevelEntries(): Promise<Sandbox["topLevel"]> {
  const out: Sandbox["topLevel"] = [];
  for (const name of TOP_LEVEL) {
    const info = await Deno.lstat(`/${name}`).catch(() => null);
    if (!info) continue;
    if (info.isSymlink) out.push({ name, link: await Deno.readLink(`/${name}`) });
    else if (info.isDirectory) out.push({ name, link: null });
  }
  return out;
}

/** The probe's verdict: a working sandbox, or why there is none. */
export type ProbeResult = { ok: true; sandbox: Sandbox } | { ok: false; reason: string };

/**
 * Finds bwrap and checks that it can create namespaces here (by running `true` confined in a temp scope), and
 * decides the limits: processes by RLIMIT_NPROC when the server is not root, by a pids cgroup when it is root;
 * memory by a memory cgroup where one can be created, always also by RLIMIT_DATA where prlimit exists.
 */
export async function probeSandbox(
  options: { uid?: number; findCgroups?: () => Promise<CgroupParents> } = {},
): Promise<ProbeResult> {
  const bwrap = await firstExisting(BWRAP_PATHS);
  if (!bwrap) return { ok: false, reason: "bubblewrap (bwrap) is not installed" };
  const version = await new Deno.Command(bwrap, { args: ["--version"], stdout: "piped", stderr: "null" })
    .output().then((o) => new TextDecoder().decode(o.stdout).trim(), () => "");
  const uid = options.uid ?? Deno.uid() ?? 0;
  const prlimit = await firstExisting(PRLIMIT_PATHS);
  const found = await (options.findCgroups ?? findCgroups)();
  // RLIMIT_NPROC does not bind root; a pids cgroup does (a non-root server keeps the rlimit, which needs nothing).
  const base = { bwrap, version: version || "bubblewrap", topLevel: await topLevelEntries(), prlimit };
  let sandbox = withCgroups(base, uid, {
    pids: uid === 0 ? found.pids : null,
    memory: found.memory,
    version: { pids: uid === 0 ? found.version.pids : null, memory: found.version.memory },
  });
  const failed = await tryTrue(sandbox, []);
  if (failed !== null) return { ok: false, reason: `bwrap cannot create a sandbox here: ${failed}` };
  if (sandbox.cgroups.pids || sandbox.cgroups.memory) {
    // Creating a group is not joining it (delegated cgroup v2 needs rights on the common ancestor too).
    const group = await createCommandGroup({ parents: sandbox.cgroups, maxPids: 8, maxMemory: PROBE_MEMORY })
      .catch(() => null);
    const joined = group !== null && await tryTrue(sandbox, group.dirs) === null;
    await group?.remove();
    if (!joined) sandbox = withCgroups(base, uid, NO_CGROUPS);
  }
  return { ok: true, sandbox };
}

const PROBE_MEMORY = 256 * 1024 * 1024;
const NO_CGROUPS: CgroupParents = { pids: null, memory: null, version: { pids: null, memory: null } };

function withCgroups(
  base: Omit<Sandbox, "cgroups" | "processLimit" | "memoryLimit">,
  uid: number,
  cgroups: CgroupParents,
): Sandbox {
  const processLimit: ProcessLimit = uid !== 0
    ? (base.prlimit ? "rlimit" : "none")
    : cgroups.pids
    ? "cgroup"
    : "none";
  const memoryLimit: MemoryLimit = cgroups.memory ? "cgroup" : base.prlimit ? "rlimit" : "none";
  return { ...base, processLimit, memoryLimit, cgroups };
}

/** Runs `true` confined in a temp scope (in the given cgroups): null when it worked, else the first error line. */
async function tryTrue(sandbox: Sandbox, cgroups: string[]): Promise<string | null> {
  const dir = await Deno.makeTempDir({ prefix: "fb-probe-" });
  try {
    const argv = sandboxArgv(sandbox, {
      scope: dir,
      cwd: dir,
      argv: ["true"],
      network: false,
      maxProcesses: 8,
      maxMemory: PROBE_MEMORY,
      cgroups,
    });
    const out = await new Deno.Command(argv[0], {
      args: argv.slice(1),
      clearEnv: true,
      env: { PATH: "/usr/bin:/bin" },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    if (out.success) return null;
    return new TextDecoder().decode(out.stderr).trim().split("\n")[0] || `exit ${out.code}`;
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
