/** Helpers for the command runner tests: the app on a real port, and a WebSocket client as filebrowser's. */
import { testApp } from "../_helpers.ts";
import type { TestApp, TestAppOptions } from "../_helpers.ts";

/** A test app served on a free port. */
export interface ServedApp {
  t: TestApp;
  /** `ws://127.0.0.1:<port>` */
  ws: string;
  port: number;
  close(): Promise<void>;
}

/** Serves a fresh test app on 127.0.0.1, port 0. */
export async function serveApp(options: TestAppOptions = {}): Promise<ServedApp> {
  const t = await testApp(options);
  const ac = new AbortController();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen() {} },
    t.app.fetch,
  );
  return {
    t,
    port: server.addr.port,
    ws: `ws://127.0.0.1:${server.addr.port}`,
    async close() {
      ac.abort();
      await server.finished;
      await t.close();
    },
  };
}

/** What a command connection saw. */
export interface CommandOutcome {
  lines: string[];
  code: number;
  reason: string;
}

/** Options of runLine. */
export interface RunLineOptions {
  /** Authenticate as this user: the `auth` cookie (as browsers do) unless `header` is set. */
  as?: string;
  header?: boolean;
  /** Messages sent after open; default: just the line. */
  messages?: string[];
  /** Called for each line as it arrives; may close the socket. */
  onLine?: (line: string, ws: WebSocket) => void;
  origin?: string;
  /** Query string appended to the URL (filebrowser's client adds `?auth=<token>`, which the server ignores). */
  query?: string;
}

/** Opens `/api/command<vpath>`, sends the command line as one text message, reads text until the close. */
export function runLine(
  app: ServedApp,
  vpath: string,
  line: string,
  options: RunLineOptions = {},
): Promise<CommandOutcome> {
  const headers: Record<string, string> = {};
  if (options.as) {
    const token = app.t.tokens[options.as];
    if (options.header) headers["X-Auth"] = token;
    else headers["Cookie"] = `auth=${token}`;
  }
  headers["Origin"] = options.origin ?? `http://127.0.0.1:${app.port}`;
  // Deno's WebSocket takes handshake headers; the DOM typing of the project does not know that option.
  const url = `${app.ws}/api/command${vpath}${options.query ?? ""}`;
  const ws = new WebSocket(url, { headers } as unknown as string[]);
  const lines: string[] = [];
  return new Promise((resolve) => {
    ws.onopen = () => {
      for (const m of options.messages ?? [line]) ws.send(m);
    };
    ws.onmessage = (e) => {
      lines.push(String(e.data));
      options.onLine?.(String(e.data), ws);
    };
    ws.onclose = (e) => resolve({ lines, code: e.code, reason: e.reason });
  });
}

/** The handshake headers of a WebSocket upgrade (for in-process `app.request` checks). */
export function upgradeHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    Upgrade: "websocket",
    Connection: "Upgrade",
    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    "Sec-WebSocket-Version": "13",
    ...extra,
  };
}

/** Polls until `check` is true or `ms` passed (generous bounds: the machine is loaded). */
export async function eventually(check: () => Promise<boolean> | boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return await check();
}

/** True when a file exists. */
export function exists(path: string): Promise<boolean> {
  return Deno.lstat(path).then(() => true, () => false);
}
