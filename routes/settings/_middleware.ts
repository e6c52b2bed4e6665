import { requirePageUser } from "../../middleware/require_page_user.ts";

/** Every settings page requires a session. */
export const middleware = requirePageUser();
