import { define, Head } from "../../define.ts";
import { useContext } from "preact/hooks";
import { RenderContext } from "../../framework/render_context.ts";
import type { RenderData } from "../../lib/startup_config.ts";
import { SettingsNav } from "../../components/settings/SettingsNav.tsx";
import type { SettingsSection } from "../../components/settings/SettingsNav.tsx";

/** The section of a settings URL: the first segment after `/settings/` (`/settings/users/3` → users). */
function sectionOf(url: string, base: string): SettingsSection {
  const rel = new URL(url).pathname.slice(base.length + "/settings/".length);
  return rel.split("/")[0] as SettingsSection;
}

/** The frame of every settings screen, inside the app shell: the settings stylesheet, heading and nav. */
export default define.layout(({ Component, url }) => {
  const { info: { config }, t } = useContext(RenderContext) as RenderData;
  return (
    <>
      <Head>
        <link rel="stylesheet" href={`${config.BaseURL}/static/settings.css?v=${config.Version}`} />
      </Head>
      <h1 class="sr-only">{t("settings.label")}</h1>
      <div class="settings" data-testid="settings">
        <SettingsNav current={sectionOf(url, config.BaseURL)} />
        <div class="settings-body">
          <Component />
        </div>
      </div>
    </>
  );
});
