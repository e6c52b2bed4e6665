/**
 * Human verification of logins with the reCAPTCHA v2 API: the browser gets a token from the provider's widget,
 * the server checks it with `POST <host>/recaptcha/api/siteverify` before it looks at the password.
 * A refused or missing token is 403 like a wrong password; a provider that cannot be reached is 500 (docs/api.md, login).
 */
import type { RecaptchaConfig } from "../../config.ts";
import { ForbiddenError, HttpError } from "../errors.ts";
import { log } from "../log.ts";
import { parseIp } from "../client_address.ts";

/** How long the provider may take to answer. */
export const CAPTCHA_TIMEOUT_MS = 5_000;

/** Tokens are a few hundred bytes to a few KiB; anything longer is not worth sending on. */
const MAX_TOKEN_LENGTH = 16 * 1024;

/** Options of verifyCaptcha. */
export interface VerifyCaptchaOptions {
  /** The client's address, passed on as `remoteip` when it is one. */
  remoteIp?: string;
  timeoutMs?: number;
  /** The HTTP client (tests may pass their own). */
  fetch?: typeof fetch;
}

/** Checks a widget token with the provider; throws ForbiddenError when refused, HttpError 500 when unreachable. */
export async function verifyCaptcha(
  config: RecaptchaConfig,
  token: string,
  options: VerifyCaptchaOptions = {},
): Promise<void> {
  if (!token) throw new ForbiddenError("captcha_missing");
  if (token.length > MAX_TOKEN_LENGTH) throw new ForbiddenError("captcha_too_long");
  const form = new URLSearchParams({ secret: config.secret, response: token });
  const ip = options.remoteIp ? parseIp(options.remoteIp) : null;
  if (ip) form.set("remoteip", ip);
  const url = `${config.host}/recaptcha/api/siteverify`;
  let answer: unknown;
  try {
    const res = await (options.fetch ?? fetch)(url, {
      method: "POST",
      body: form,
      signal: AbortSignal.timeout(options.timeoutMs ?? CAPTCHA_TIMEOUT_MS),
      redirect: "error",
    });
    if (res.status !== 200) {
      await res.body?.cancel();
      log.warn(`human verification: ${url} answered ${res.status}`);
      throw new ForbiddenError("captcha_rejected");
    }
    answer = await res.json();
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw new HttpError(500, "captcha_unavailable", undefined, { cause: err });
  }
  if ((answer as { success?: unknown } | null)?.success !== true) throw new ForbiddenError("captcha_failed");
}
