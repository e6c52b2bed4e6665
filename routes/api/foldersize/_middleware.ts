import { requireUser } from "../../../middleware/require_user.ts";

export const middleware = requireUser();
