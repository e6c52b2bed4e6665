import { requirePageUser } from "../../../middleware/require_page_user.ts";

/** User management is for admins only (others go to /403). */
export const middleware = requirePageUser({ admin: true });
