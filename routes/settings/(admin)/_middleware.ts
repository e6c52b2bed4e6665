import { requirePageUser } from "../../../middleware/require_page_user.ts";

/** Admin-only settings pages in this folder (others go to /403); the login guard of the folder above runs first. */
export const middleware = requirePageUser({ admin: true });
