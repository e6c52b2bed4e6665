import { define } from "../define.ts";

/** The root goes to the files. */
export const handler = define.handlers({
  GET(c) {
    return c.redirect(`${c.var.deps.config.baseUrl}/files/`, 302);
  },
});
