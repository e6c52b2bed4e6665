import { define } from "../../define.ts";
import { usePage } from "../../client/hooks.ts";

/** The files section inside the app shell: its heading for screen readers (the visible title is the path). */
export default define.layout(({ Component }) => {
  const { t } = usePage();
  return (
    <>
      <h1 class="sr-only">{t("sidebar.myFiles")}</h1>
      <Component />
    </>
  );
});
