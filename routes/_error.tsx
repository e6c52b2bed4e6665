import { useContext } from "preact/hooks";
import { define } from "../define.ts";
import { RenderContext } from "../framework/render_context.ts";
import type { RenderData } from "../lib/startup_config.ts";
import { ErrorPage } from "../components/ErrorPage.tsx";

/** The error page rendered by app.ts's onError for page requests. */
export default define.page<unknown>(({ data }) => {
  const { info, t } = useContext(RenderContext) as RenderData;
  const status = (data as { status?: number } | undefined)?.status ?? 500;
  return <ErrorPage status={status} config={info.config} t={t} />;
});
