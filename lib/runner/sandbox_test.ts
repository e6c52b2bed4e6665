import assert from "node:assert/strict";
import { probeSandbox, type Sandbox, sandboxArgv } from "./sandbox.ts";

const SANDBOX: Sandbox = {
  bwrap: "/usr/bin/bwrap",
  version: "bubblewrap 0.8.0",
  topLevel: [{ name: "bin", link: "usr/bin" }, { name: "lib", link: null }],
  processLimit: "none",
  memoryLimit: "rlimit",
  prlimit: null,
  cgroups: { pids: null, memory: null, version: { pids: null, memory: null } },
};
const OPTIONS = {
  scope: "/srv/files/alice",
  cwd: "/srv/files/alice/sub",
  argv: ["ls", "-la", "a;b"],
  network: false,
  maxMemory: 1 << 30,
};

function pairs(argv: string[], flag: string): string[][] {
  const out: string[][] = [];
  argv.forEach((a, i) => a === flag && out.push(argv.slice(i + 1, i + 3)));
  return out;
}

Deno.test("sandboxArgv() binds only the scope writable, at its own path, and ends with the literal argv", () => {
  const argv = sandboxArgv(SANDBOX, { ...OPTIONS, maxProcesses: 8 });
  assert.equal(argv[0], "/usr/bin/bwrap");
  assert.deepEqual(pairs(argv, "--bind"), [["/srv/files/alice", "/srv/files/alice"]]);
  assert.deepEqual(pairs(argv, "--ro-bind")[0], ["/usr", "/usr"]);
  assert.deepEqual(pairs(argv, "--ro-bind")[1], ["/lib", "/lib"]);
  assert.deepEqual(pairs(argv, "--symlink"), [["usr/bin", "/bin"]]);
  assert.deepEqual(argv.slice(-4), ["--", "ls", "-la", "a;b"]);
  assert.equal(argv[argv.indexOf("--chdir") + 1], "/srv/files/alice/sub");
  // The root is made read-only after the last mount, and so are /dev and /proc.
  assert.ok(argv.indexOf("--remount-ro") > argv.indexOf("--bind"));
  assert.deepEqual(pairs(argv, "--remount-ro").map(([dir]) => dir), ["/", "/dev", "/proc"]);
  // /tmp and /dev/shm are tmpfs of a fixed size (their pages are memory).
  const tmpfs = argv.flatMap((a, i) => a === "--tmpfs" ? [[argv[i - 2], argv[i - 1], argv[i + 1]]] : []);
  assert.deepEqual(tmpfs.map(([size, , dir]) => [size, dir]), [["--size", "/tmp"], ["--size", "/dev/shm"]]);
  assert.ok(tmpfs.every(([, bytes]) => Number(bytes) > 0 && Number(bytes) <= 64 * 1024 * 1024));
  for (const flag of ["--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net"]) {
    assert.ok(argv.includes(flag), flag);
  }
  assert.ok(argv.includes("--die-with-parent") && argv.includes("--new-session"));
  const etc = pairs(argv, "--ro-bind-try").map(([src]) => src);
  assert.ok(etc.includes("/etc/passwd") && etc.includes("/etc/alternatives"));
  assert.ok(!etc.some((p) => /shadow|sudoers|resolv|ssl/.test(p)), etc.join(" "));
  assert.ok(!argv.includes("--dev-bind") && !argv.includes("--bind-try") && !argv.includes("--cap-add"));
});

Deno.test("sandboxArgv() keeps the network only when asked, with resolv.conf and the certificates", () => {
  const argv = sandboxArgv(SANDBOX, { ...OPTIONS, network: true, maxProcesses: 8 });
  assert.ok(!argv.includes("--unshare-net"));
  const etc = pairs(argv, "--ro-bind-try").map(([src]) => src);
  assert.ok(etc.includes("/etc/resolv.conf") && etc.includes("/etc/ssl"));
  assert.ok(!etc.some((p) => /shadow|sudoers/.test(p)), etc.join(" "));
});

Deno.test("sandboxArgv() wraps the command in prlimit (data, and processes in rlimit mode) and joins cgroups first", () => {
  const prlimit = { ...SANDBOX, prlimit: "/usr/bin/prlimit" };
  const rl = sandboxArgv({ ...prlimit, processLimit: "rlimit" }, { ...OPTIONS, maxProcesses: 12 });
  assert.deepEqual(rl.slice(-9), [
    "--",
    "/usr/bin/prlimit",
    "--data=1073741824:1073741824",
    "--nproc=12:12",
    "--core=0",
    "--",
    "ls",
    "-la",
    "a;b",
  ]);
  const groups = ["/sys/fs/cgroup/pids/fb-exec-1", "/sys/fs/cgroup/memory/fb-exec-2"];
  const cg = sandboxArgv({ ...prlimit, processLimit: "cgroup" }, {
    ...OPTIONS,
    maxProcesses: 12,
    cgroups: groups,
  });
  assert.deepEqual(cg.slice(0, 7), [
    "/bin/sh",
    "-c",
    'echo $$ > "$1/cgroup.procs" && echo $$ > "$2/cgroup.procs" && shift 2 && exec "$@"',
    "fb-cgroup",
    ...groups,
    "/usr/bin/bwrap",
  ]);
  assert.deepEqual(cg.slice(-8), [
    "--",
    "/usr/bin/prlimit",
    "--data=1073741824:1073741824",
    "--core=0",
    "--",
    "ls",
    "-la",
    "a;b",
  ]);
  // Without prlimit the argv runs as it is.
  assert.deepEqual(sandboxArgv(SANDBOX, { ...OPTIONS, maxProcesses: 12 }).slice(-4), [
    "--",
    "ls",
    "-la",
    "a;b",
  ]);
});

Deno.test("probeSandbox() finds a working bubblewrap here and a process limit", async () => {
  const probe = await probeSandbox();
  assert.ok(probe.ok, probe.ok ? "" : probe.reason);
  assert.match(probe.sandbox.version, /^bubblewrap \d+\.\d+/);
  assert.notEqual(probe.sandbox.processLimit, "none");
});

Deno.test("the rlimit mode caps processes for a server that is not root", async () => {
  const probe = await probeSandbox({ uid: 65534 });
  assert.ok(probe.ok && probe.sandbox.processLimit === "rlimit");
  const setpriv = await Deno.stat("/usr/bin/setpriv").then(() => true, () => false);
  if (Deno.uid() !== 0 || !setpriv) return; // Needs root to become another user; CI runs as root.
  const dir = await Deno.makeTempDir();
  try {
    await Deno.chmod(dir, 0o777);
    const run = async (n: number) => {
      const argv = sandboxArgv(probe.sandbox, {
        scope: dir,
        cwd: dir,
        argv: ["sh", "-c", `for i in $(seq ${n}); do sleep 1 & done; echo spawned all`],
        network: false,
        maxProcesses: 8,
        maxMemory: 1 << 30,
      });
      const out = await new Deno.Command("/usr/bin/setpriv", {
        args: ["--reuid=65534", "--regid=65534", "--clear-groups", "--", ...argv],
        clearEnv: true,
        env: { PATH: "/usr/bin:/bin" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      return new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    };
    assert.match(await run(3), /spawned all/);
    const over = await run(30);
    assert.doesNotMatch(over, /spawned all/);
    assert.match(over, /fork/i);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
