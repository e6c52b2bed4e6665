/** WebDAV test harness: a test app with `--webdav` served on a free port, for real clients (litmus, rclone). */
import { type TestApp, testApp, type TestAppOptions } from "../_helpers.ts";

/** A served app and the URL of its WebDAV endpoint. */
export interface DavServer {
  t: TestApp;
  /** Origin, e.g. `http://127.0.0.1:1234`. */
  origin: string;
  /** `<origin>/dav/`. */
  davUrl: string;
  close(): Promise<void>;
}

/** Serves a test app with WebDAV on. */
export async function serveDav(options: TestAppOptions = {}): Promise<DavServer> {
  const t = await testApp({ ...options, config: { webdav: true, ...options.config } });
  const ac = new AbortController();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen() {} },
    t.app.fetch,
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return {
    t,
    origin,
    davUrl: `${origin}/dav/`,
    async close() {
      ac.abort();
      await server.finished;
      await t.close();
    },
  };
}

/** Basic credentials header value. */
export function basic(username: string, password: string): string {
  return "Basic " + btoa(String.fromCharCode(...new TextEncoder().encode(`${username}:${password}`)));
}

/** Runs a command, returns its exit code and combined output. */
export async function run(
  cmd: string,
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<{ code: number; out: string }> {
  const out = await new Deno.Command(cmd, { args, ...options, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, out: text };
}
