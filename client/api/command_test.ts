import assert from "node:assert/strict";
import { commandFolder, commandUrl, endNote, exitStatusOf, runCommand, toTerminal } from "./command.ts";
import type { RunEnd } from "./command.ts";

Deno.test("commandFolder: a folder stays, a file gives its parent", () => {
  const table: [string, string][] = [
    ["/", "/"],
    ["/docs/", "/docs/"],
    ["/docs/a.txt", "/docs/"],
    ["/a.txt", "/"],
    ["docs/", "/docs/"],
    ["", "/"],
  ];
  for (const [path, want] of table) assert.equal(commandFolder(path), want, path);
});

Deno.test("commandUrl: scheme follows the page, base URL kept, segments encoded", () => {
  const http = { protocol: "http:", host: "h:8080" };
  const https = { protocol: "https:", host: "example.org" };
  assert.equal(commandUrl(http, "", "/"), "ws://h:8080/api/command/");
  assert.equal(commandUrl(https, "/fb", "/a b/c#d?/"), "wss://example.org/fb/api/command/a%20b/c%23d%3F/");
  assert.equal(commandUrl(http, "", "/x/%2e%2e/"), "ws://h:8080/api/command/x/%252e%252e/");
  assert.equal(commandUrl(http, "", "/docs/file.txt"), "ws://h:8080/api/command/docs/");
});

Deno.test("toTerminal: every message is a line with CR LF ends", () => {
  assert.equal(toTerminal("a"), "a\r\n");
  assert.equal(toTerminal(""), "\r\n");
  assert.equal(toTerminal("a\nb"), "a\r\nb\r\n");
  assert.equal(toTerminal("a\r\nb"), "a\r\nb\r\n");
  assert.equal(toTerminal("\x1b[31mred\x1b[0m"), "\x1b[31mred\x1b[0m\r\n");
});

Deno.test("exitStatusOf: only a normal close with a numeric reason carries a status", () => {
  const table: [number, string, number | null][] = [
    [1000, "exit 0", 0],
    [1000, "exit 2", 2],
    [1000, "exit 127 ", 127],
    [1000, "exit -1", -1],
    [1000, "", null],
    [1000, "exit", null],
    [1000, "exit 1e3", null],
    [1000, "exit 99999", null],
    [1000, "2", null],
    [1006, "exit 1", null],
    [1011, "exit 1", null],
    [4403, "not allowed", null],
  ];
  for (const [code, reason, want] of table) {
    assert.equal(exitStatusOf(code, reason), want, `${code} ${reason}`);
  }
});

class FakeSocket {
  sent: string[] = [];
  closed = false;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: { code: number; reason: string }) => void) | null = null;
  send(s: string) {
    this.sent.push(s);
  }
  close() {
    this.closed = true;
  }
}

function start(line = "ls") {
  const sock = new FakeSocket();
  const out: string[] = [];
  const ends: RunEnd[] = [];
  const run = runCommand("ws://x/api/command/", line, {
    onOutput: (t) => out.push(t),
    onEnd: (e) => ends.push(e),
  }, () => sock as unknown as WebSocket);
  return { sock, out, ends, run };
}

Deno.test("runCommand: sends the line on open, streams lines, reports the exit status once", () => {
  const { sock, out, ends } = start("ls -l");
  assert.deepEqual(sock.sent, []);
  sock.onopen!();
  assert.deepEqual(sock.sent, ["ls -l"]);
  sock.onmessage!({ data: "a" });
  sock.onmessage!({ data: new ArrayBuffer(1) });
  sock.onmessage!({ data: "b" });
  sock.onclose!({ code: 1000, reason: "exit 3" });
  sock.onclose!({ code: 1000, reason: "exit 3" });
  assert.deepEqual(out, ["a\r\n", "b\r\n"]);
  assert.deepEqual(ends, [{ how: "done", status: 3, code: 1000, reason: "exit 3" }]);
});

Deno.test("runCommand: stop closes the socket, ends once, and ignores later output", () => {
  const { sock, out, ends, run } = start();
  sock.onopen!();
  run.stop();
  sock.onmessage!({ data: "late" });
  sock.onclose!({ code: 1005, reason: "" });
  run.stop();
  assert.equal(sock.closed, true);
  assert.deepEqual(out, []);
  assert.deepEqual(ends, [{ how: "stopped", status: null, code: 0 }]);
});

Deno.test("runCommand: a close before open is a failed connection", () => {
  const { sock, ends } = start();
  sock.onclose!({ code: 1006, reason: "" });
  assert.deepEqual(ends, [{ how: "failed", status: null, code: 1006, reason: "" }]);
});

Deno.test("runCommand: a socket that cannot be built fails asynchronously", async () => {
  const ends: RunEnd[] = [];
  runCommand("bad", "ls", { onOutput() {}, onEnd: (e) => ends.push(e) }, () => {
    throw new SyntaxError("bad url");
  });
  assert.deepEqual(ends, []);
  await Promise.resolve();
  assert.deepEqual(ends, [{ how: "failed", status: null, code: 0 }]);
});

Deno.test("endNote: what the terminal adds after each kind of end", () => {
  const table: [RunEnd, ReturnType<typeof endNote>][] = [
    [{ how: "done", status: 0, code: 1000 }, null],
    [{ how: "done", status: 2, code: 1000 }, { key: "shell.exitStatus", vars: { status: 2 } }],
    [{ how: "done", status: null, code: 1006 }, null],
    [{ how: "done", status: null, code: 4403 }, null],
    [{ how: "done", status: null, code: 4403, reason: "not allowed" }, null],
    [{ how: "done", status: null, code: 4403, reason: "not allowed: rules" }, { key: "shell.refusedRules" }],
    [{ how: "done", status: null, code: 4403, reason: "not allowed: hidden files" }, {
      key: "shell.refusedHidden",
    }],
    [{ how: "done", status: null, code: 4403, reason: "not allowed: quota" }, { key: "shell.refusedQuota" }],
    [{ how: "done", status: null, code: 1000, reason: "not allowed: quota" }, null],
    [{ how: "done", status: null, code: 4400 }, null],
    [{ how: "done", status: null, code: 4408 }, { key: "shell.timeout" }],
    [{ how: "done", status: null, code: 4413 }, { key: "shell.outputLimit" }],
    [{ how: "done", status: null, code: 1011 }, { key: "shell.serverError" }],
    [{ how: "stopped", status: null, code: 0 }, null],
    [{ how: "failed", status: null, code: 1006 }, { key: "shell.connectionFailed" }],
  ];
  for (const [end, want] of table) assert.deepEqual(endNote(end), want, JSON.stringify(end));
});
