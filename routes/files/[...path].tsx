import { define, page } from "../../define.ts";
import type { Resource } from "../../lib/types.ts";
import { Layout } from "../../components/Layout.tsx";
import { usePage } from "../../client/hooks.ts";
import { FileBrowser } from "../../islands/FileBrowser.tsx";
import { Header } from "../../islands/Header.tsx";
import { Prompts } from "../../islands/Prompts.tsx";
import { ShellPanel } from "../../islands/ShellPanel.tsx";
import { Sidebar } from "../../islands/Sidebar.tsx";
import { Uploads } from "../../islands/Uploads.tsx";
import { Toasts } from "../../islands/Toasts.tsx";
import { requirePageUser } from "../../middleware/require_page_user.ts";
import { gateContextOf } from "../../lib/fs/gate.ts";
import { findListingHead } from "../../lib/fs/listing_head.ts";
import { FIRST_SCREEN } from "../../islands/files/use_window.ts";

export const middleware = requirePageUser();

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export const handler = define.handlers({
  async GET(c) {
    const base = c.var.deps.config.baseUrl;
    const rel = new URL(c.req.url).pathname.slice(base.length + "/files".length) || "/";
    const path = rel.split("/").map(decodeSegment).join("/");
    const name = path.split("/").filter(Boolean).pop();
    // A folder's first screen of rows is rendered here, from the listing the API would answer; anything else
    // (a file, a missing or forbidden path) is loaded by the page as before.
    const listing = path.endsWith("/")
      ? await findListingHead(gateContextOf(c.var), path, {
        sorting: c.var.user.sorting,
        readHeaders: c.var.deps.config.typeDetectionByHeader,
        limit: FIRST_SCREEN,
        listings: c.var.deps.listings,
        signal: c.req.raw.signal,
      })
      : null;
    const complete = listing !== null && listing.items!.length === listing.numDirs! + listing.numFiles!;
    // The rest of the listing: the browser fetches it while the scripts load (client/listing.ts asks for the
    // same URL). A folder that fits in the first screen needs no second request.
    const preload = complete
      ? null
      : `${base}/api/resources${path.split("/").map(encodeURIComponent).join("/")}`;
    // The shell panel (and its script) only for users who may run commands.
    const shell = c.var.deps.config.enableExec && c.var.user?.perm.execute === true;
    return page({ path, preload, shell, listing }, { title: name ?? "sidebar.myFiles" });
  },
});

export default define.page<typeof handler>(({ data }) => (
  <FilesPage path={data.path} preload={data.preload} shell={data.shell} listing={data.listing} />
));

function FilesPage(data: { path: string; preload: string | null; shell: boolean; listing: Resource | null }) {
  const { t } = usePage();
  return (
    <>
      {data.preload && <link rel="preload" as="fetch" href={data.preload} crossOrigin="anonymous" />}
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
        <FileBrowser path={data.path} listing={data.listing} />
      </Layout>
    </>
  );
}
