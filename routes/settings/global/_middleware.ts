import { requirePageUser } from "../../../middleware/require_page_user.ts";

/** Global settings are for admins only (others go to /403). */
export const middleware = requirePageUser({ admin: true });
