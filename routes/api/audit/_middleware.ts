import { requireUser } from "../../../middleware/require_user.ts";

/** The audit log is for admins only. */
export const middleware = requireUser({ admin: true });
