import { requireUser } from "../../../middleware/require_user.ts";

/** Managing share links requires a session (the share permission is checked in lib/shares.ts). */
export const middleware = requireUser();
