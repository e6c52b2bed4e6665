import { define } from "../../../define.ts";
import { vpathOf } from "../../../middleware/requests.ts";
import { type CommandSession, openCommandSession } from "../../../lib/runner/session.ts";
import { clientAddress } from "../../../middleware/conn.ts";
import { audit } from "../../../lib/audit/mod.ts";

export const handler = define.handlers({
  async GET(c) {
    // Loaded on the first shell session: `hono/deno` also brings its static-file server and Node's `path`.
    const { upgradeWebSocket } = await import("hono/deno");
    const options = {
      exec: c.var.deps.exec,
      user: c.var.user,
      settings: c.var.settings,
      gate: c.var.ctx.gate,
      vpath: vpathOf(c),
      usage: c.var.deps,
    };
    let session: CommandSession | null = null;
    const deps = c.var.deps, client = clientAddress(c);
    return upgradeWebSocket(c, {
      onOpen(_evt, ws) {
        // Recorded here: the audit middleware lets upgrades pass untouched (middleware/audit_trail.ts).
        void audit(deps, {
          user: options.user.username,
          action: "command.run",
          path: options.vpath,
          client,
          status: 101,
        });
        session = openCommandSession(options, {
          send: (text) => ws.readyState === 1 && ws.send(text),
          close: (code, reason) => ws.readyState === 1 && ws.close(code, reason),
        });
      },
      onMessage(evt) {
        session?.message(evt.data);
      },
      onClose() {
        session?.closed();
      },
    });
  },
});
