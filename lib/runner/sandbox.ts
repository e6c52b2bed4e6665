/**
 * Confinement of commands with bubblewrap. `probeSandbox()` runs once at start: it finds `bwrap`, checks that it
 * can create namespaces here and decides how the process limit is enforced. `sandboxArgv()` builds the argv of one
 * confined command: the user's scope is the only writable tree (mounted at its own path, so HOME, the working
 * directory, `$FILE` and `$DESTINATION` mean the same inside and outside), `/usr` and a few files of `/etc` are
 * read-only, `/tmp` is private, and there are new user, PID, IPC, UTS, cgroup and (unless allowed) network
 * namespaces.
 */
import { findPidsCgroup } from "./cgroup.ts";

/** How the number of processes of one command is capped. */
export type ProcessLimit =
  /** RLIMIT_NPROC set by `prlimit` inside a new user namespace (the server runs as a non-root user). */
  | "rlimit"
  /** A pids cgroup per command (the server runs as root, which RLIMIT_NPROC does not bind). */
  | "cgroup"
  /** Neither is available: only the time and output limits apply. */
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
  /** Absolute path of `prlimit` (used inside the sandbox in "rlimit" mode). */
  prlimit: string | null;
  /** The pids cgroup under which each command gets its own group ("cgroup" mode). */
  cgroupParent: string | null;
}

/** What one confined command needs. */
export interface SandboxOptions {
  /** Real path of the user's scope: bound read-write at the same path. */
  scope: string;
  /** Real path of the working directory, inside `scope`. */
  cwd: string;
  /** Program and arguments. */
  argv: string[];
  /** Keep the host network (`--exec-network`). */
  network: boolean;
  maxProcesses: number;
  /** The command's own pids cgroup ("cgroup" mode). */
  cgroup?: string;
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
  // The scope last: it may lie under /tmp (or anywhere), and a later mount wins.
  args.push("--bind", options.scope, options.scope);
  // Nothing else is writable: the root of the sandbox becomes read-only once every mount point exists, and so
  // does /proc (a server running as root runs commands as uid 0 without capabilities, which /proc/sys would
  // still let write host-wide settings such as kernel.core_pattern).
  args.push("--remount-ro", "/", "--remount-ro", "/proc", "--chdir", options.cwd, "--");
  if (sandbox.processLimit === "rlimit" && sandbox.prlimit) {
    const n = String(options.maxProcesses);
    args.push(sandbox.prlimit, `--nproc=${n}:${n}`, "--core=0", "--");
  }
  args.push(...options.argv);
  if (options.cgroup) {
    // Join the command's pids cgroup before bwrap forks anything, then become bwrap (same pid).
    return ["/bin/sh", "-c", 'echo $$ > "$0/cgroup.procs" && exec "$@"', options.cgroup, ...args];
  }
  return args;
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
 * decides the process limit: RLIMIT_NPROC when the server is not root, a pids cgroup when it is root.
 */
export async function probeSandbox(options: { uid?: number } = {}): Promise<ProbeResult> {
  const bwrap = await firstExisting(BWRAP_PATHS);
  if (!bwrap) return { ok: false, reason: "bubblewrap (bwrap) is not installed" };
  const version = await new Deno.Command(bwrap, { args: ["--version"], stdout: "piped", stderr: "null" })
    .output().then((o) => new TextDecoder().decode(o.stdout).trim(), () => "");
  const uid = options.uid ?? Deno.uid() ?? 0;
  const prlimit = await firstExisting(PRLIMIT_PATHS);
  const cgroupParent = uid === 0 ? await findPidsCgroup() : null;
  const processLimit: ProcessLimit = uid !== 0
    ? (prlimit ? "rlimit" : "none")
    : cgroupParent
    ? "cgroup"
    : "none";
  const sandbox: Sandbox = {
    bwrap,
    version: version || "bubblewrap",
    topLevel: await topLevelEntries(),
    processLimit,
    prlimit,
    cgroupParent,
  };
  const dir = await Deno.makeTempDir({ prefix: "fb-probe-" });
  try {
    const argv = sandboxArgv(sandbox, {
      scope: dir,
      cwd: dir,
      argv: ["true"],
      network: false,
      maxProcesses: 8,
    });
    const out = await new Deno.Command(argv[0], {
      args: argv.slice(1),
      clearEnv: true,
      env: { PATH: "/usr/bin:/bin" },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!out.success) {
      const why = new TextDecoder().decode(out.stderr).trim().split("\n")[0] || `exit ${out.code}`;
      return { ok: false, reason: `bwrap cannot create a sandbox here: ${why}` };
    }
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  return { ok: true, sandbox };
}
