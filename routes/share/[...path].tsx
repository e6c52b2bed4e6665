import { define, page } from "../../define.ts";
import { decodePathLenient } from "../../lib/request_path.ts";
import { SharePage } from "../../islands/SharePage.tsx";
import { findPublicPage } from "../../lib/share_pages.ts";
import { clientAddress } from "../../middleware/conn.ts";

export const handler = define.handlers({
  async GET(c) {
    const rest = (c.req.param("path") ?? "").split("/").map(decodePathLenient);
    const hash = rest[0] ?? "";
    const sub = "/" + rest.slice(1).join("/");
    // What the page's island would ask the public share API for, unless the link needs a password or is gone.
    const initial = await findPublicPage(c.var.deps, c.var.settings, { hash, sub, client: clientAddress(c) });
    return page({ hash, sub, initial }, { title: "share.title" });
  },
});

// The frame (header, drawer sidebar, overlays) is routes/share/_layout.tsx.
export default define.page<typeof handler>(({ data }) => (
  <SharePage hash={data.hash} sub={data.sub} initial={data.initial} />
));
