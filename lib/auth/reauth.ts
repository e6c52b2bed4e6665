/**
 * Re-authentication of account changes (docs/api.md#users): the requester's current password, with json auth only.
 * Guesses are throttled like logins (scope "reauth", per client and account), so a stolen token cannot try passwords
 * at bcrypt speed.
 */
import type { AuthMethod } from "../../config.ts";
import { BadRequestError } from "../errors.ts";
import type { StoredUser } from "../types.ts";
import { verifyPassword } from "./passwords.ts";
import type { Throttle } from "./throttle.ts";

/** Throws BadRequestError unless `body.current_password` is the requester's own password; a no-op without json auth. */
export async function checkCurrentPassword(
  requester: StoredUser,
  body: Record<string, unknown>,
  options: { authMethod: AuthMethod; throttle?: { throttle: Throttle; client: string; now: number } },
): Promise<void> {
  // Proxy and noauth have no password to ask for: the proxy (or nobody) vouches for the requester.
  if (options.authMethod !== "json") return;
  // An absent key is a client that does not know the check (filebrowser's sends it): say what it lacks.
  if (body.current_password === undefined || body.current_password === null) {
    throw new BadRequestError(
      `"current_password" is missing: the requester's own password, in the JSON body`,
      {
        code: "current_password_missing",
      },
    );
  }
  const given = typeof body.current_password === "string" ? body.current_password : "";
  const guard = options.throttle;
  // The slot is taken before the password is checked (429 past the limit), and given back on success.
  const slot = guard ? await guard.throttle.reserve(guard.client, `user:${requester.id}`, guard.now) : null;
  if (given === "" || !await verifyPassword(given, requester.passwordHash)) {
    throw new BadRequestError("the current password is incorrect", { code: "current_password_incorrect" });
  }
  await slot?.release();
}
