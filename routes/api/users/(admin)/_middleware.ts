import { requireUser } from "../../../../middleware/require_user.ts";

/** Listing and creating users, and resetting another user's two-factor login, are for admins only. */
export const middleware = requireUser({ admin: true });
