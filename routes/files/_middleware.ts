import { requirePageUser } from "../../middleware/require_page_user.ts";

/** The files pages require a session (else the login, which comes back here). */
export const middleware = requirePageUser();
