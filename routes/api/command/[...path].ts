import { upgradeWebSocket } from "hono/deno";
import { define } from "../../../define.ts";
import { gateContextOf } from "../../../lib/fs/gate.ts";
import { type CommandSession, openCommandSession } from "../../../lib/runner/session.ts";
import { requireUser } from "../../../middleware/require_user.ts";
import { webSocketGuard } from "../../../middleware/websocket_guard.ts";

export const middleware = [requireUser(), webSocketGuard()];

export const handler = define.handlers({
  GET(c) {
    const options = {
      exec: c.var.deps.exec,
      user: c.var.user,
      settings: c.var.settings,
      gate: gateContextOf(c.var),
      vpath: "/" + c.req.param("path"),
    };
    let session: CommandSession | null = null;
    return upgradeWebSocket(c, {
      onOpen(_evt, ws) {
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
