import { drainBody } from "../../../middleware/drain_body.ts";
import { requireUser } from "../../../middleware/require_user.ts";

// Drain first, so that even a 401 leaves the connection usable.
export const middleware = [drainBody(), requireUser()];
