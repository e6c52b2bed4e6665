import { define } from "../define.ts";
import { Layout } from "../components/Layout.tsx";
import { Header } from "../islands/Header.tsx";
import { Prompts } from "../islands/Prompts.tsx";
import { ShellPanel } from "../islands/ShellPanel.tsx";
import { Sidebar } from "../islands/Sidebar.tsx";
import { Toasts } from "../islands/Toasts.tsx";
import { Uploads } from "../islands/Uploads.tsx";

/**
 * The shell of the signed-in pages (files and settings): header, sidebar, the routed main area and the overlays.
 * It is the same on every page it wraps, so client-side navigation swaps only the main area between them: the
 * shell panel too is there on every page for users who may run commands (it shows on files URLs only).
 * Pages with another frame skip it (`config.skipInheritedLayouts`: the login, the public share, the error page).
 */
export default define.layout(({ Component, url, state }) => {
  const base = state.deps.config.baseUrl;
  const rel = new URL(url).pathname.slice(base.length);
  // The header's file actions and the sidebar's disk usage belong to the files page (in the browser they
  // follow the route, since the header and the sidebar stay mounted across navigation).
  const files = rel === "/files" || rel.startsWith("/files/");
  const shell = state.deps.config.enableExec && state.user?.perm.execute === true;
  return (
    <Layout
      header={<Header actions={files} />}
      sidebar={<Sidebar usage={files} />}
      overlays={
        <>
          <Prompts />
          <Toasts />
          <Uploads />
          {shell && <ShellPanel />}
        </>
      }
    >
      <Component />
    </Layout>
  );
});
