import { define } from "../../define.ts";

/** `/settings` → `/settings/profile` (the login guard of routes/settings/_middleware.ts runs first). */
export const handler = define.handlers({
  GET(c) {
    return c.redirect(`${c.var.deps.config.baseUrl}/settings/profile`, 302);
  },
});
