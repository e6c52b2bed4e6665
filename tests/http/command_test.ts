/**
 * The WebSocket command runner over real connections: filebrowser's protocol, authentication and
 * handshake checks, vetting of the first word, no shell injection, the close frame, and the limits.
 * Confinement (what a command can reach) is in command_sandbox_test.ts.
 */
import assert from "node:assert/strict";
import { testApp } from "../_helpers.ts";
import type { TestUserSpec } from "../_helpers.ts";
import { exists, runLine, serveApp, upgradeHeaders } from "./_command.ts";
import type { ServedApp } from "./_command.ts";
import type { Config } from "../../config.ts";

const ALICE: TestUserSpec = {
  username: "alice",
  perm: { execute: true },
  scope: "/alice",
  commands: ["echo", "sh", "cat", "sleep", "yes", "true"],
};

async function withApp(
  options: Parameters<typeof serveApp>[0],
  fn: (app: ServedApp) => Promise<void>,
): Promise<void> {
  const app = await serveApp(options);
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

function execApp(config: Partial<Config> = {}, users: TestUserSpec[] = [ALICE]) {
  return { config: { enableExec: true, ...config }, users };
}

Deno.test("command: filebrowser's client sequence (cookie, one text message, lines until close) runs the line", async () => {
  await withApp(execApp(), async (app) => {
    await Deno.mkdir(`${app.t.root}/alice/sub`);
    // Its client opens `/api/command<path>?auth=<jwt>` with the `auth` cookie set, and sends the line on open.
    const r = await runLine(app, "/sub/", "echo hi there", {
      as: "alice",
      query: `?auth=${app.t.tokens.alice}`,
    });
    assert.deepEqual(r.lines, ["hi there"]);
    assert.equal(r.code, 1000);
    assert.equal(r.reason, "exit 0");
    // The session is in the audit log (recorded when the socket opens).
    const entries = [];
    for await (
      const e of app.t.deps.kv.list<{ action: string; user: string; path: string }>({ prefix: ["audit"] })
    ) {
      entries.push(e.value);
    }
    assert.ok(
      entries.some((e) => e.action === "command.run" && e.user === "alice" && e.path === "/sub/"),
      JSON.stringify(entries),
    );
  });
});

Deno.test("command: a token in the query string alone does not authenticate", async () => {
  await withApp(execApp(), async (app) => {
    const r = await runLine(app, "/", "echo hi", { query: `?auth=${app.t.tokens.alice}` });
    assert.deepEqual(r.lines, []);
    assert.notEqual(r.code, 1000, "the handshake failed");
  });
});

Deno.test("command: the X-Auth header authenticates too; stdout comes before stderr; the close carries the status", async () => {
  await withApp(execApp(), async (app) => {
    const r = await runLine(app, "/", `sh -c "echo err >&2; echo out; exit 3"`, {
      as: "alice",
      header: true,
    });
    assert.deepEqual(r.lines, ["out", "err"]);
    assert.equal(r.code, 1000);
    assert.equal(r.reason, "exit 3");
  });
});

Deno.test("command: handshake refusals (anonymous 401, not an upgrade 400, another origin 403)", async () => {
  const t = await testApp(execApp());
  try {
    let res = await t.request("/api/command/", { headers: upgradeHeaders() });
    assert.equal(res.status, 401);
    await res.body?.cancel();
    res = await t.request("/api/command/", { as: "alice" });
    assert.equal(res.status, 400);
    assert.equal(res.headers.get("Content-Type"), "text/plain; charset=utf-8");
    assert.equal(await res.text(), "400 Bad Request\n");
    res = await t.request("/api/command/", {
      as: "alice",
      headers: upgradeHeaders({ Origin: "https://evil.example", Host: "files.example" }),
    });
    assert.equal(res.status, 403);
    await res.body?.cancel();
    res = await t.request("/api/command/", {
      as: "alice",
      headers: upgradeHeaders({ Origin: "null", Host: "files.example" }),
    });
    assert.equal(res.status, 403);
    await res.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("command: a cross-origin handshake over a real connection is refused", async () => {
  await withApp(execApp(), async (app) => {
    const r = await runLine(app, "/", "echo hi", { as: "alice", origin: "http://evil.example" });
    assert.deepEqual(r.lines, []);
    assert.notEqual(r.code, 1000, "the handshake failed");
  });
});

Deno.test("command: with exec off nothing runs (endpoint refuses)", async () => {
  await withApp({ users: [ALICE] }, async (app) => {
    const r = await runLine(app, "/", "sh -c 'touch ran'", { as: "alice" });
    assert.deepEqual(r.lines, ["Command not allowed."]);
    assert.equal(r.code, 4403);
    assert.equal(await exists(`${app.t.root}/alice/ran`), false);
  });
});

Deno.test("command: role matrix (no execute permission, command not listed, deny rules, admin)", async () => {
  const users: TestUserSpec[] = [
    ALICE,
    { username: "noexec", perm: {}, scope: "/alice", commands: ["echo"] },
    {
      username: "ruled",
      perm: { execute: true },
      scope: "/alice",
      commands: ["echo"],
      rules: [
        { regex: false, allow: false, path: "/private", regexp: null },
      ],
    },
  ];
  await withApp(execApp({}, users), async (app) => {
    const cases: [string, string, string[]][] = [
      ["noexec", "echo hi", ["Command not allowed."]],
      ["alice", "ls", ["Command not allowed."]],
      ["ruled", "echo hi", ["Command not allowed."]],
      ["admin", "echo hi", ["Command not allowed."]], // the admin's command list is empty
      ["alice", "echo hi", ["hi"]],
    ];
    for (const [as, line, lines] of cases) {
      const r = await runLine(app, "/", line, { as });
      assert.deepEqual(r.lines, lines, `${as}: ${line}`);
      assert.equal(r.code, lines[0] === "Command not allowed." ? 4403 : 1000);
    }
  });
});

Deno.test("command: lexing errors and empty lines answer with filebrowser's texts", async () => {
  await withApp(execApp(), async (app) => {
    let r = await runLine(app, "/", "echo 'unbalanced", { as: "alice" });
    assert.equal(r.lines.length, 1);
    assert.match(r.lines[0], /^error parsing command: /);
    assert.equal(r.code, 4400);
    r = await runLine(app, "/", "# just a comment", { as: "alice" });
    assert.deepEqual(r.lines, ["no command contained in '# just a comment'"]);
    assert.equal(r.code, 4400);
  });
});

Deno.test("command: without a shell, metacharacters are literal arguments of exactly one program", async () => {
  await withApp(execApp(), async (app) => {
    await Deno.writeTextFile(`${app.t.root}/alice/a.txt`, "x");
    const table: [string, string][] = [
      ["echo a; touch pwned", "a; touch pwned"],
      ["echo a && touch pwned", "a && touch pwned"],
      ["echo a | touch pwned", "a | touch pwned"],
      ["echo a || touch pwned &", "a || touch pwned &"],
      ["echo $(touch pwned)", "$(touch pwned)"],
      ["echo `touch pwned`", "`touch pwned`"],
      ["echo a\ntouch pwned", "a touch pwned"],
      ["echo $HOME ${PATH} $0", "$HOME ${PATH} $0"],
      ["echo * ?.txt", "* ?.txt"],
      ["echo 'a  b' \"c  d\"", "a  b c  d"],
      ["echo a\\;touch\\ pwned", "a;touch pwned"],
      ["echo > pwned", "> pwned"],
      ["echo a # touch pwned", "a"],
    ];
    for (const [line, out] of table) {
      const r = await runLine(app, "/", line, { as: "alice" });
      assert.deepEqual(r.lines, [out], JSON.stringify(line));
      assert.equal(r.reason, "exit 0");
    }
    assert.equal(await exists(`${app.t.root}/alice/pwned`), false);
  });
});

Deno.test("command: the first word is vetted after splitting, never before", async () => {
  await withApp(execApp(), async (app) => {
    const table: [string, string[]][] = [
      ['"echo" hi', ["hi"]],
      ["e\\cho hi", ["hi"]],
      ["'echo hi'", ["Command not allowed."]],
      ["echo;touch pwned", ["Command not allowed."]],
      ["/bin/echo hi", ["Command not allowed."]],
      ["./echo hi", ["Command not allowed."]],
      ["touch pwned", ["Command not allowed."]],
      ["ECHO hi", ["Command not allowed."]],
    ];
    for (const [line, lines] of table) {
      const r = await runLine(app, "/", line, { as: "alice" });
      assert.deepEqual(r.lines, lines, line);
    }
    assert.equal(await exists(`${app.t.root}/alice/pwned`), false);
  });
});

Deno.test("command: with a shell set the whole line runs (only the first word is vetted)", async () => {
  await withApp({ ...execApp(), settings: { shell: ["sh", "-c"] } }, async (app) => {
    const r = await runLine(app, "/", "echo a; echo b", { as: "alice" });
    assert.deepEqual(r.lines, ["a", "b"]);
    const refused = await runLine(app, "/", "id; echo b", { as: "alice" });
    assert.deepEqual(refused.lines, ["Command not allowed."]);
  });
});

Deno.test("command: one command per connection, blank messages skipped, stdin closed", async () => {
  await withApp(execApp(), async (app) => {
    let r = await runLine(app, "/", "", { as: "alice", messages: ["   ", "\n", "echo one", "echo two"] });
    assert.deepEqual(r.lines, ["one"]);
    r = await runLine(app, "/", "cat", { as: "alice" });
    assert.deepEqual(r.lines, []);
    assert.equal(r.reason, "exit 0");
  });
});

Deno.test("command: runs in the vpath's folder through the gate; HOME is the scope", async () => {
  const users: TestUserSpec[] = [ALICE, { ...ALICE, username: "dotless", hideDotfiles: true }];
  await withApp(execApp({}, users), async (app) => {
    const scope = await Deno.realPath(`${app.t.root}/alice`);
    await Deno.mkdir(`${scope}/sub dir/.hidden`, { recursive: true });
    await Deno.writeTextFile(`${scope}/sub dir/f.txt`, "x");
    await Deno.mkdir(`${app.t.root}/bob`);
    await Deno.symlink("../bob", `${scope}/escape`);
    const pwd = `sh -c 'pwd; echo "$HOME"'`;
    let r = await runLine(app, "/sub%20dir/", pwd, { as: "alice" });
    assert.deepEqual(r.lines, [`${scope}/sub dir`, scope]);
    r = await runLine(app, "/sub%20dir/f.txt", pwd, { as: "alice" });
    assert.deepEqual(r.lines, [`${scope}/sub dir`, scope], "a file means its folder");
    // The client's URL parser removes %2e%2e segments; an encoded slash gets dot-dots through to the server.
    r = await runLine(app, "/sub%20dir%2F..%2F..%2F..%2F", pwd, { as: "alice" });
    assert.deepEqual(r.lines, [scope, scope], "dot-dot stops at the scope");
    r = await runLine(app, "/escape/", pwd, { as: "alice" });
    assert.deepEqual(r.lines, ["Command not allowed."], "a symlink out of the scope");
    r = await runLine(app, "/sub%20dir/.hidden/", pwd, { as: "dotless" });
    assert.deepEqual(r.lines, ["Command not allowed."], "a hidden folder");
    r = await runLine(app, "/missing/", pwd, { as: "alice" });
    assert.deepEqual(r.lines, ["no such directory: '/missing/'"]);
    assert.equal(r.code, 4404);
    r = await runLine(app, "/a\\b/", pwd, { as: "alice" });
    assert.equal(r.code, 4404, "a backslash is a name character");
  });
});

Deno.test("command: the environment is a small fixed set, not the server's", async () => {
  // A variable only this test uses (test files may share the process: never touch FB_ADMIN_PASSWORD here).
  Deno.env.set("FB_EXEC_TEST_SECRET", "hunter2-secret");
  try {
    await withApp(execApp(), async (app) => {
      const r = await runLine(app, "/", "sh -c env", { as: "alice" });
      const names = r.lines.map((l) => l.split("=")[0]).sort();
      assert.deepEqual(names, ["HOME", "LANG", "PATH", "PWD"]);
      assert.ok(!r.lines.join("\n").includes("hunter2"));
    });
  } finally {
    Deno.env.delete("FB_EXEC_TEST_SECRET");
  }
});

Deno.test("command: the wall-clock limit kills the command and closes with 4408", async () => {
  await withApp(execApp({ execTimeout: 1 }), async (app) => {
    const t0 = Date.now();
    const r = await runLine(app, "/", "sh -c 'echo start; sleep 30; echo never'", { as: "alice" });
    assert.deepEqual(r.lines, ["start"]);
    assert.equal(r.code, 4408);
    assert.equal(r.reason, "timeout");
    assert.ok(Date.now() - t0 < 20_000);
  });
});

Deno.test("command: output is capped in lines and bytes (the command is killed, 4413)", async () => {
  await withApp(execApp(), async (app) => {
    const exec = app.t.deps.exec!;
    const limits = exec.limits;
    exec.limits = { ...limits, maxLines: 100 };
    let r = await runLine(app, "/", "yes", { as: "alice" });
    assert.equal(r.lines.length, 100);
    assert.equal(r.code, 4413);
    exec.limits = { ...limits, maxBytes: 10_000 };
    r = await runLine(
      app,
      "/",
      "sh -c 'while true; do echo 0123456789012345678901234567890123456789; done'",
      {
        as: "alice",
      },
    );
    assert.ok(r.lines.length < 300, `${r.lines.length} lines`);
    assert.equal(r.reason, "output limit");
    exec.limits = limits;
  });
});

Deno.test("command: the process is killed when the client goes away", async () => {
  await withApp(execApp(), async (app) => {
    const scope = `${app.t.root}/alice`;
    const r = await runLine(app, "/", "sh -c 'echo started; sleep 2; touch late'", {
      as: "alice",
      onLine: (line, ws) => line === "started" && ws.close(),
    });
    assert.deepEqual(r.lines, ["started"]);
    await new Promise((res) => setTimeout(res, 3000));
    assert.equal(await exists(`${scope}/late`), false);
  });
});

Deno.test("command: at most 4 commands of one user run at once (real parallel connections)", async () => {
  await withApp(execApp(), async (app) => {
    const runs = await Promise.all(
      Array.from({ length: 6 }, () => runLine(app, "/", "sleep 2", { as: "alice" })),
    );
    const busy = runs.filter((r) => r.code === 4429);
    const ran = runs.filter((r) => r.reason === "exit 0");
    assert.equal(busy.length, 2);
    assert.equal(ran.length, 4);
    assert.deepEqual(busy[0].lines, ["Too many commands running."]);
    const after = await runLine(app, "/", "true", { as: "alice" });
    assert.equal(after.reason, "exit 0", "slots are released");
  });
});

Deno.test("command: a program that does not exist ends with a non-zero status", async () => {
  const users = [{ ...ALICE, commands: ["no-such-program"] }];
  await withApp(execApp({}, users), async (app) => {
    const r = await runLine(app, "/", "no-such-program", { as: "alice" });
    assert.notEqual(r.reason, "exit 0");
    assert.match(r.reason, /^exit \d+$/);
  });
});

Deno.test("command: unconfined mode runs with the same protocol, environment and kill", async () => {
  const probe = await testApp(execApp());
  const confined = probe.deps.exec!;
  await probe.close();
  await withApp({ ...execApp(), exec: { ...confined, sandbox: null } }, async (app) => {
    const scope = await Deno.realPath(`${app.t.root}/alice`);
    const r = await runLine(app, "/", "sh -c 'env; pwd'", { as: "alice" });
    assert.deepEqual(
      r.lines.map((l) => l.split("=")[0]).sort(),
      ["HOME", "LANG", "PATH", "PWD", scope].sort(),
    );
    await runLine(app, "/", "sh -c 'echo started; (sleep 2; touch late) & sleep 2; touch late2'", {
      as: "alice",
      onLine: (line, ws) => line === "started" && ws.close(),
    });
    await new Promise((res) => setTimeout(res, 3000));
    assert.equal(await exists(`${scope}/late`), false);
    assert.equal(await exists(`${scope}/late2`), false);
  });
});

Deno.test("settings: admins read how commands run (disabled, confined by bubblewrap); it is never stored", async () => {
  const off = await testApp({ users: [ALICE] });
  const on = await testApp(execApp());
  try {
    let r = await off.request("/api/settings", { as: "admin" });
    assert.equal(r.status, 200);
    assert.deepEqual((await r.json()).exec, {
      mode: "disabled",
      sandbox: "",
      processLimit: "none",
      memoryLimit: "none",
      network: false,
    });
    r = await on.request("/api/settings", { as: "admin" });
    const s = await r.json();
    assert.equal(s.exec.mode, "confined");
    assert.match(s.exec.sandbox, /^bubblewrap \d/);
    assert.notEqual(s.exec.memoryLimit, "none");
    assert.equal(s.exec.network, false);
    r = await on.request("/api/settings", { as: "alice" });
    assert.equal(r.status, 403);
    await r.body?.cancel();
    r = await on.request("/api/settings", {
      method: "PUT",
      as: "admin",
      body: JSON.stringify({ ...s, exec: { mode: "unconfined" } }),
    });
    assert.equal(r.status, 200);
    await r.body?.cancel();
    assert.equal((await on.deps.store.findSettings())?.exec, undefined);
  } finally {
    await off.close();
    await on.close();
  }
});
