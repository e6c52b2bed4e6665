import { requireUser } from "../../../middleware/require_user.ts";
import { webSocketGuard } from "../../../middleware/websocket_guard.ts";

/** The command runner: a session, then a well-formed same-origin WebSocket upgrade. */
export const middleware = [requireUser(), webSocketGuard()];
