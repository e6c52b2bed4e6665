import { type AppContext, define } from "../../define.ts";
import { isTrustedProxy, login } from "../../lib/auth/mod.ts";
import { readJsonObject, stringField } from "../../lib/json_body.ts";
import { ForbiddenError, HttpError } from "../../lib/errors.ts";
import { clientAddress, remoteAddress } from "../../middleware/conn.ts";
import { audit } from "../../lib/audit/mod.ts";

async function handle(c: AppContext) {
  const deps = c.var.deps;
  const client = clientAddress(c);
  let username = "", password = "", captcha = "", otp = "";
  if (deps.config.authMethod === "json" || deps.config.authMethod === "hook") {
    // Malformed or oversized credentials are a failed login (403), as upstream.
    const body = await readJsonObject(c.req.raw).catch(async (err) => {
      const refused = err instanceof HttpError && err.status === 413
        ? err
        : new ForbiddenError("bad_login_body");
      // A failed login too, though no username could be read.
      const failed = { user: "", action: "login", client, status: refused.status, detail: refused.code };
      await audit(deps, failed, { anonymous: true });
      throw refused;
    });
    username = stringField(body, "username");
    password = stringField(body, "password");
    captcha = stringField(body, "recaptcha");
    otp = stringField(body, "otp");
  }
  const proxyUser = deps.config.authMethod === "proxy" && isTrustedProxy(deps, remoteAddress(c))
    ? c.req.header(deps.config.authHeader) ?? null
    : null;
  const token = await login(deps, c.var.settings, { username, password, captcha, otp, client, proxyUser });
  return c.text(token, 200);
}

export const handler = define.handlers({ POST: handle, GET: handle });
