import { requireUser } from "../../../../middleware/require_user.ts";

/** A user reads and changes their own record (the route checks the id); admins any. */
export const middleware = requireUser();
