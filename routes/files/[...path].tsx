import { define, page } from "../../define.ts";
import { decodePathLenient } from "../../lib/request_path.ts";
import { Layout } from "../../components/Layout.tsx";
import { usePage } from "../../client/hooks.ts";
import { FileBrowser } from "../../islands/FileBrowser.tsx";
import { Header } from "../../islands/Header.tsx";
import { Prompts } from "../../islands/Prompts.tsx";
import { ShellPanel } from "../../islands/ShellPanel.tsx";
import { Sidebar } from "../../islands/Sidebar.tsx";
import { Uploads } from "../../islands/Uploads.tsx";
import { Toasts } from "../../islands/Toasts.tsx";

export const handler = define.handlers({
  GET(c) {
    const base = c.var.deps.config.baseUrl;
    const rel = new URL(c.req.url).pathname.slice(base.length + "/files".length) || "/";
    const path = decodePathLenient(rel);
    const name = path.split("/").filter(Boolean).pop();
    // The browser fetches the listing while the scripts load (client/listing.ts asks for the same URL).
    const preload = `${base}/api/resources${path.split("/").map(encodeURIComponent).join("/")}`;
    // The shell panel (and its script) only for users who may run commands.
    const shell = c.var.deps.config.enableExec && c.var.user?.perm.execute === true;
    return page({ path, preload, shell }, { title: name ?? "sidebar.myFiles" });
  },
});

export default define.page<typeof handler>(({ data }) => (
  <FilesPage path={data.path} preload={data.preload} shell={data.shell} />
));

function FilesPage(data: { path: string; preload: string; shell: boolean }) {
  const { t } = usePage();
  return (
    <>
      <link rel="preload" as="fetch" href={data.preload} crossOrigin="anonymous" />
      <Layout
        heading={t("sidebar.myFiles")}
        header={<Header actions />}
        sidebar={<Sidebar usage />}
        overlays={
          <>
            <Prompts />
            <Toasts />
            <Uploads />
            {data.shell && <ShellPanel />}
          </>
        }
      >
        <FileBrowser path={data.path} />
      </Layout>
    </>
  );
}
