import { requireUser } from "../../../middleware/require_user.ts";

/** Global settings are for admins only. */
export const middleware = requireUser({ admin: true });
