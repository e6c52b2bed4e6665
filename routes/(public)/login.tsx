import { define, page } from "../../define.ts";
import { Login } from "../../islands/Login.tsx";
import { safeRedirect } from "../../lib/redirect.ts";

/** The login page is a centred card of its own, outside the app shell. */
export const config = { skipInheritedLayouts: true };

export const handler = define.handlers({
  GET(c) {
    const redirect = safeRedirect(c.req.query("redirect"), { baseUrl: c.var.deps.config.baseUrl });
    if (c.var.user) return c.redirect(`${c.var.deps.config.baseUrl}${redirect}`, 302);
    // Self-signup checks the --min-password-length flag, not the admin-editable setting.
    const minPasswordLength = c.var.deps.config.minPasswordLength;
    return page({ redirect, signup: c.req.query("signup") === "1", minPasswordLength }, {
      title: "login.title",
    });
  },
});

export default define.page<typeof handler>(({ data }) => (
  <main class="center-page">
    <Login redirect={data.redirect} signup={data.signup} minPasswordLength={data.minPasswordLength} />
  </main>
));
