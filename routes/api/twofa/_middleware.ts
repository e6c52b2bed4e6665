import { requireUser } from "../../../middleware/require_user.ts";

/** Two-factor enrolment stays reachable for users who must enrol. */
export const middleware = requireUser({ enrolling: true });
