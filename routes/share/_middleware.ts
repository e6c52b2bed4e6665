import { requirePageUser } from "../../middleware/require_page_user.ts";

/** Public: no login needed; a signed-in visitor still gets their sidebar. */
export const middleware = requirePageUser({ optional: true });
