import type { ComponentChildren } from "preact";
import { Layout } from "../Layout.tsx";
import { Header } from "../../islands/Header.tsx";
import { Prompts } from "../../islands/Prompts.tsx";
import { Sidebar } from "../../islands/Sidebar.tsx";
import { Toasts } from "../../islands/Toasts.tsx";
import { usePage } from "../../client/hooks.ts";
import { SettingsNav } from "./SettingsNav.tsx";
import type { SettingsSection } from "./SettingsNav.tsx";

/** The frame of every settings screen: the main layout, the settings stylesheet, the settings nav and the screen. */
export function SettingsPage(props: { section: SettingsSection; children: ComponentChildren }) {
  const { config } = usePage();
  return (
    <>
      <link rel="stylesheet" href={`${config.BaseURL}/static/settings.css?v=${config.Version}`} />
      <Layout
        header={<Header />}
        sidebar={<Sidebar />}
        overlays={
          <>
            <Prompts />
            <Toasts />
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
