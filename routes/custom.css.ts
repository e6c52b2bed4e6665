import { define } from "../define.ts";

/** The instance's custom stylesheet (settings.customCss), loaded after ours so it can override any variable. */
export const handler = define.handlers({
  GET(c) {
    return c.body(c.var.settings.customCss ?? "", 200, {
      "Content-Type": "text/css; charset=utf-8",
      "Cache-Control": "no-cache",
    });
  },
});
