import { define, page } from "../../define.ts";
import { decodePathLenient } from "../../lib/request_path.ts";
import { FileBrowser } from "../../islands/FileBrowser.tsx";

export const handler = define.handlers({
  GET(c) {
    const base = c.var.deps.config.baseUrl;
    const rel = new URL(c.req.url).pathname.slice(base.length + "/files".length) || "/";
    const path = decodePathLenient(rel);
    const name = path.split("/").filter(Boolean).pop();
    // The browser fetches the listing while the scripts load (client/listing.ts asks for the same URL).
    const preload = `${base}/api/resources${path.split("/").map(encodeURIComponent).join("/")}`;
    return page({ path, preload }, { title: name ?? "sidebar.myFiles" });
  },
});

// The shell (header, sidebar, overlays) is routes/_layout.tsx, the heading routes/files/_layout.tsx.
export default define.page<typeof handler>(({ data }) => (
  <>
    <link rel="preload" as="fetch" href={data.preload} crossOrigin="anonymous" />
    <FileBrowser path={data.path} />
  </>
));
