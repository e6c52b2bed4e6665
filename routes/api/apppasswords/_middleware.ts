import { requireUser } from "../../../middleware/require_user.ts";

/** Every app-password request requires a session. */
export const middleware = requireUser();
