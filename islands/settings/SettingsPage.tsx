/** A server-rendered frame (not an island): it places the layout islands around a settings screen. */
import type { ComponentChildren } from "preact";
import { Layout } from "../../components/Layout.tsx";
import { Header } from "../Header.tsx";
import { Prompts } from "../Prompts.tsx";
import { Sidebar } from "../Sidebar.tsx";
import { Uploads } from "../Uploads.tsx";
import { Toasts } from "../Toasts.tsx";
import { usePage } from "../../client/hooks.ts";
import { SettingsNav } from "../../components/settings/SettingsNav.tsx";
import type { SettingsSection } from "../../components/settings/SettingsNav.tsx";

/** The frame of every settings screen: the main layout, the settings stylesheet, the settings nav and the screen. */
export function SettingsPage(props: { section: SettingsSection; children: ComponentChildren }) {
  const { config, t } = usePage();
  return (
    <>
      <link rel="stylesheet" href={`${config.BaseURL}/static/settings.css?v=${config.Version}`} />
      <Layout
        heading={t("settings.label")}
        header={<Header />}
        sidebar={<Sidebar />}
        overlays={
          <>
            <Prompts />
            <Toasts />
            <Uploads />
          </>
        }
      >
        <div class="settings" data-testid="settings">
          <SettingsNav current={props.section} />
          <div class="settings-body">{props.children}</div>
        </div>
      </Layout>
    </>
  );
}
