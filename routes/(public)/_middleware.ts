import { requirePageUser } from "../../middleware/require_page_user.ts";

/** Pages anyone may see; a signed-in visitor is known (the login page sends them on). */
export const middleware = requirePageUser({ optional: true });
