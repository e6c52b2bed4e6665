import assert from "node:assert/strict";
import { defaultSettings } from "../settings.ts";
import type { StoredUser } from "../types.ts";
import type { ExecEnv } from "./run.ts";
import { CLOSE, type CommandSessionOptions, openCommandSession, REFUSED } from "./session.ts";

const EXEC: ExecEnv = {
  sandbox: null,
  network: false,
  limits: { timeoutMs: 5000, maxProcesses: 16, maxMemory: 1024 ** 3, maxLines: 100, maxBytes: 10_000 },
};

function fakeSocket() {
  const sent: string[] = [];
  let closed: [number, string] | null = null;
  let onClose = () => {};
  return {
    sent,
    closedWith: () => closed,
    done: new Promise<void>((resolve) => (onClose = resolve)),
    socket: {
      send: (t: string) => void sent.push(t),
      close: (code: number, reason: string) => {
        closed = [code, reason];
        onClose();
      },
    },
  };
}

async function withScope(fn: (options: CommandSessionOptions) => Promise<void>) {
  const root = await Deno.realPath(await Deno.makeTempDir());
  try {
    const user = {
      id: 7,
      username: "u",
      scope: "/",
      perm: { execute: true },
      rules: [],
      hideDotfiles: false,
      commands: ["echo"],
    } as unknown as StoredUser;
    const settings = defaultSettings();
    await fn({
      exec: EXEC,
      user,
      settings,
      gate: { root, user, globalRules: settings.rules, followExternalSymlinks: false, foldCase: false },
      vpath: "/",
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("a session waits for a non-blank text message, runs only the first, and closes with the status", async () => {
  await withScope(async (options) => {
    const s = fakeSocket();
    const session = openCommandSession(options, s.socket);
    session.message(new Uint8Array([1, 2]));
    session.message("   \n");
    session.message("echo one");
    session.message("echo two");
    await s.done;
    assert.deepEqual(s.sent, ["one"]);
    assert.deepEqual(s.closedWith(), [CLOSE.exit, "exit 0"]);
  });
});

Deno.test("a session without a command line in time closes with 4408", async () => {
  await withScope(async (options) => {
    const s = fakeSocket();
    openCommandSession({ ...options, firstMessageMs: 50 }, s.socket);
    await s.done;
    assert.deepEqual(s.closedWith(), [CLOSE.timeout, "timeout"]);
  });
});

Deno.test("a session refuses when exec is off, and names the policy for rules, hidden dotfiles and quotas", async () => {
  await withScope(async (options) => {
    const rule = { regex: false, allow: false, path: "/secret", regexp: null };
    const cases: [Partial<CommandSessionOptions>, string][] = [
      [{ exec: null }, "not allowed"],
      [{ user: { ...options.user, perm: { ...options.user.perm, execute: false } } }, "not allowed"],
      [{ user: { ...options.user, rules: [rule] } }, REFUSED.rules],
      [{ settings: { ...options.settings, rules: [rule] } }, REFUSED.rules],
      [{ user: { ...options.user, hideDotfiles: true } }, REFUSED.hidden],
      [{ user: { ...options.user, quota: 1024 } }, REFUSED.quota],
    ];
    for (const [change, reason] of cases) {
      const s = fakeSocket();
      openCommandSession({ ...options, ...change }, s.socket).message("echo hi");
      await s.done;
      assert.deepEqual(s.sent, ["Command not allowed."], reason);
      assert.deepEqual(s.closedWith(), [CLOSE.notAllowed, reason]);
    }
    // A quota of 0 is no quota.
    const s = fakeSocket();
    openCommandSession({ ...options, user: { ...options.user, quota: 0 } }, s.socket).message("echo hi");
    await s.done;
    assert.deepEqual(s.closedWith(), [CLOSE.exit, "exit 0"]);
  });
});
