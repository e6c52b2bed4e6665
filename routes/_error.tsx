import { useContext } from "preact/hooks";
import { define } from "../define.ts";
import { RenderContext } from "../framework/render_context.ts";
import type { ErrorPageData } from "../framework/router.ts";
import type { RenderData } from "../lib/startup_config.ts";
import { ErrorPage } from "../components/ErrorPage.tsx";
import { requirePageUser } from "../middleware/require_page_user.ts";

/** `/403`, `/404` and `/500` are pages of their own: the admin-only guards redirect to `/403`. */
export const statusPages = [403, 404, 500];

/** On the status pages the session is optional (the header, theme and language follow the user if any). */
export const middleware = requirePageUser({ optional: true });

/** A full page of its own (logo and message), not inside the app shell: it also shows to visitors. */
export const config = { skipInheritedLayouts: true };

/** The error page: rendered by the router for failed page requests (status in `data`) and at `/<status>`. */
export default define.page<unknown>(({ data }) => {
  const { info, t } = useContext(RenderContext) as RenderData;
  return <ErrorPage status={(data as ErrorPageData).status} config={info.config} t={t} />;
});
