import { useContext } from "preact/hooks";
import { define, page } from "../define.ts";
import { RenderContext } from "../framework/render_context.ts";
import type { RenderData } from "../lib/startup_config.ts";
import { ErrorPage } from "../components/ErrorPage.tsx";
import { requirePageUser } from "../middleware/require_page_user.ts";

export const middleware = requirePageUser({ optional: true });

export const handler = define.handlers({
  GET() {
    return page({}, { status: 404, title: "errors.title.404" });
  },
});

export default define.page<typeof handler>(() => {
  const { info, t } = useContext(RenderContext) as RenderData;
  return <ErrorPage status={404} config={info.config} t={t} />;
});
