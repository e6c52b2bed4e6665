import { requireUser } from "../../../middleware/require_user.ts";

/** Renewing and ending a session stay reachable for users who must still enrol in two-factor login. */
export const middleware = requireUser({ enrolling: true });
