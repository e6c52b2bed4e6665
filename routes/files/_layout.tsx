import { define } from "../../define.ts";
import { useContext } from "preact/hooks";
import { RenderContext } from "../../framework/render_context.ts";
import type { RenderData } from "../../lib/startup_config.ts";

/** The files section inside the app shell: its heading for screen readers (the visible title is the path). */
export default define.layout(({ Component }) => {
  const { t } = useContext(RenderContext) as RenderData;
  return (
    <>
      <h1 class="sr-only">{t("sidebar.myFiles")}</h1>
      <Component />
    </>
  );
});
