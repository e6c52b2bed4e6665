import { define, page } from "../../define.ts";
import { decodePathLenient } from "../../lib/request_path.ts";
import { encodePath } from "../../lib/url_path.ts";
import { findListingHead } from "../../lib/fs/listing_head.ts";
import { FileBrowser } from "../../islands/FileBrowser.tsx";
import { FIRST_SCREEN, PRELOAD_MAX_ITEMS } from "../../islands/files/use_window.ts";

export const handler = define.handlers({
  async GET(c) {
    const base = c.var.deps.config.baseUrl;
    const rel = new URL(c.req.url).pathname.slice(base.length + "/files".length) || "/";
    const path = decodePathLenient(rel);
    const name = path.split("/").filter(Boolean).pop();
    // A folder's first screen of rows is rendered here, from the listing the API would answer; anything else
    // (a file, a missing or forbidden path) is loaded by the page as before.
    const listing = path.endsWith("/")
      ? await findListingHead(c.var.ctx.gate, path, {
        sorting: c.var.user.sorting,
        readHeaders: c.var.deps.config.typeDetectionByHeader,
        limit: FIRST_SCREEN,
        listings: c.var.deps.listings,
        signal: c.req.raw.signal,
      })
      : null;
    const total = listing === null ? 0 : listing.numDirs! + listing.numFiles!;
    // The rest of the listing: the browser fetches it while the scripts load (client/api/listing.ts asks for
    // the same URL, encoded the same way). A folder that fits in the first screen needs no second request, a
    // big one is fetched by the listing worker (its body would cost the main thread a long task).
    // Without a first screen (a file's preview page, a missing or forbidden path) the page asks for the path
    // itself, on the main thread with the cookie: that request is preloaded as before.
    const folderDone = listing !== null && (listing.items!.length === total || total > PRELOAD_MAX_ITEMS);
    const preload = folderDone ? null : `${base}/api/resources${encodePath(path)}`;
    return page({ path, preload, listing }, { title: name ?? "sidebar.myFiles" });
  },
});

// The shell (header, sidebar, overlays) is routes/_layout.tsx, the heading routes/files/_layout.tsx.
export default define.page<typeof handler>(({ data }) => (
  <>
    {data.preload && <link rel="preload" as="fetch" href={data.preload} crossOrigin="anonymous" />}
    <FileBrowser path={data.path} listing={data.listing} />
  </>
));
