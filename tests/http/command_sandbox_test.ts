/**
 * What a confined command can reach, for a user with scope `/alice` (a neighbour `/bob` holds a secret):
 * the host's files, other scopes, the host root, anything outside the scope for writing, the network and an
 * unbounded number of processes are all out of reach; ordinary work inside the scope is not.
 */
import assert from "node:assert/strict";
import type { TestUserSpec } from "../_helpers.ts";
import type { Config } from "../../config.ts";
import { exists, runLine, serveApp } from "./_command.ts";
import type { ServedApp } from "./_command.ts";

const ALICE: TestUserSpec = {
  username: "alice",
  perm: { execute: true },
  scope: "/alice",
  commands: ["cat", "ls", "sh", "bash", "git", "curl", "python3", "echo"],
};

async function withAlice(config: Partial<Config>, fn: (app: ServedApp, scope: string) => Promise<void>) {
  const app = await serveApp({ config: { enableExec: true, ...config }, users: [ALICE] });
  try {
    await Deno.mkdir(`${app.t.root}/bob`);
    await Deno.writeTextFile(`${app.t.root}/bob/x`, "bob's secret");
    const scope = await Deno.realPath(`${app.t.root}/alice`);
    await Deno.writeTextFile(`${scope}/notes.txt`, "alice's notes\n");
    await fn(app, scope);
  } finally {
    await app.close();
  }
}

function ok(r: { reason: string }, what: string) {
  assert.equal(r.reason, "exit 0", what);
}

function failed(r: { reason: string }, what: string) {
  assert.match(r.reason, /^exit [1-9]\d*$/, what);
}

Deno.test("sandbox: ls, cat, sh -c and git status work inside the scope", async () => {
  await withAlice({}, async (app, scope) => {
    let r = await runLine(app, "/", "ls", { as: "alice" });
    assert.deepEqual(r.lines, ["notes.txt"]);
    r = await runLine(app, "/", "cat notes.txt", { as: "alice" });
    assert.deepEqual(r.lines, ["alice's notes"]);
    r = await runLine(app, "/", `sh -c "echo new > made.txt && cat made.txt"`, { as: "alice" });
    assert.deepEqual(r.lines, ["new"]);
    assert.equal(await Deno.readTextFile(`${scope}/made.txt`), "new\n");
    const init = await new Deno.Command("git", { args: ["init", "-q", scope], stdout: "null" }).output();
    assert.ok(init.success);
    r = await runLine(app, "/", "git status", { as: "alice" });
    ok(r, r.lines.join("\n"));
    assert.ok(r.lines.some((l) => l.includes("No commits yet")), r.lines.join("\n"));
  });
});

Deno.test("sandbox: host secrets, other scopes and the host root are out of reach", async () => {
  await withAlice({}, async (app, scope) => {
    await Deno.symlink("/etc/hostname", `${scope}/host-link`);
    await Deno.symlink("../bob", `${scope}/bob-link`);
    const table = [
      "cat /etc/shadow",
      "cat ../bob/x",
      "cat bob-link/x",
      "cat host-link",
      `cat ${app.t.root}/bob/x`,
      "ls /root",
      "ls /home",
      `cat /proc/${Deno.pid}/environ`,
    ];
    for (const line of table) {
      const r = await runLine(app, "/", line, { as: "alice" });
      failed(r, line);
      assert.ok(!r.lines.join("\n").includes("secret"), line);
    }
    const r = await runLine(app, "/", "ls /", { as: "alice" });
    ok(r, "ls /");
    const allowed = ["bin", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc", "sbin", "tmp", "usr"];
    allowed.push(scope.split("/")[1]);
    assert.deepEqual(r.lines.filter((l) => !allowed.includes(l)), [], `ls / shows ${r.lines}`);
    const etc = await runLine(app, "/", "ls /etc", { as: "alice" });
    assert.ok(!etc.lines.includes("shadow") && !etc.lines.includes("gshadow"), etc.lines.join(" "));
  });
});

Deno.test("sandbox: nothing outside the scope can be written", async () => {
  await withAlice({}, async (app, scope) => {
    const tmpName = `/tmp/fb-escape-${crypto.randomUUID()}`;
    const outside = `${app.t.root}/bob/planted`;
    const line =
      `sh -c 'echo x > ../planted; echo x > ${outside}; echo x > /usr/planted; echo x > /etc/planted; ` +
      `echo x > /planted; echo x > ${tmpName}; echo x > inside; cat ${tmpName}'`;
    const r = await runLine(app, "/", line, { as: "alice" });
    assert.ok(
      r.lines.some((l) => /Read-only file system|No such file|Permission denied/.test(l)),
      r.lines.join("\n"),
    );
    // Kernel settings: a harmless, per-namespace one stands for all of /proc/sys.
    const sys = await runLine(app, "/", "sh -c 'echo sandbox > /proc/sys/kernel/domainname'", {
      as: "alice",
    });
    failed(sys, sys.lines.join("\n"));
    for (const p of [`${app.t.root}/planted`, outside, "/usr/planted", "/etc/planted", "/planted", tmpName]) {
      assert.equal(await exists(p), false, p);
    }
    assert.equal(await exists(`${scope}/inside`), true, "the scope itself is writable");
  });
});

async function withListener(fn: (port: number, accepted: () => number) => Promise<void>) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let count = 0;
  const loop = (async () => {
    for await (const conn of listener) {
      count++;
      conn.close();
    }
  })();
  try {
    await fn((listener.addr as Deno.NetAddr).port, () => count);
  } finally {
    listener.close();
    await loop.catch(() => {});
  }
}

Deno.test("sandbox: no network unless --exec-network (loopback TCP, curl, python)", async () => {
  await withListener(async (port, accepted) => {
    const lines = [
      `bash -c 'echo hi > /dev/tcp/127.0.0.1/${port}'`,
      `curl -sS --max-time 5 http://127.0.0.1:${port}/`,
      `python3 -c "import socket; socket.create_connection(('127.0.0.1', ${port}), 5)"`,
    ];
    await withAlice({}, async (app) => {
      for (const line of lines) failed(await runLine(app, "/", line, { as: "alice" }), line);
    });
    assert.equal(accepted(), 0);
    // The control: the same line reaches the listener when the admin allows the network.
    await withAlice({ execNetwork: true }, async (app) => {
      ok(await runLine(app, "/", lines[0], { as: "alice" }), lines[0]);
    });
    assert.equal(accepted(), 1);
  });
});

Deno.test("sandbox: forking past the process limit fails", async () => {
  await withAlice({ execMaxProcesses: 16 }, async (app) => {
    const spawn = (n: number) => `sh -c 'for i in $(seq ${n}); do sleep 2 & done; echo spawned all'`;
    let r = await runLine(app, "/", spawn(4), { as: "alice" });
    assert.deepEqual(r.lines, ["spawned all"], "under the limit");
    r = await runLine(app, "/", spawn(40), { as: "alice" });
    assert.ok(!r.lines.includes("spawned all"), r.lines.join("\n"));
    assert.ok(r.lines.some((l) => /fork|Resource temporarily unavailable/i.test(l)), r.lines.join("\n"));
  });
});
