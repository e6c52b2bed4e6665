import { requireUser } from "../../../middleware/require_user.ts";

/** Listing share links requires a session. */
export const middleware = requireUser();
