/** Re-authentication of account changes (API.md §6.17): the requester's current password, with json auth only. */
import type { AuthMethod } from "../../config.ts";
import { BadRequestError } from "../errors.ts";
import type { StoredUser } from "../types.ts";
import { verifyPassword } from "./passwords.ts";

/** Throws BadRequestError unless `body.current_password` is the requester's own password; a no-op without json auth. */
export async function checkCurrentPassword(
  requester: StoredUser,
  body: Record<string, unknown>,
  options: { authMethod: AuthMethod },
): Promise<void> {
  // Proxy and noauth have no password to ask for: the proxy (or nobody) vouches for the requester.
  if (options.authMethod !== "json") return;
  const given = typeof body.current_password === "string" ? body.current_password : "";
  if (given === "" || !await verifyPassword(given, requester.passwordHash)) {
    throw new BadRequestError("the current password is incorrect", { code: "current_password_incorrect" });
  }
}
