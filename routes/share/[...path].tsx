import { define, page } from "../../define.ts";
import { SharePage } from "../../islands/SharePage.tsx";
import { requirePageUser } from "../../middleware/require_page_user.ts";

// Public: no login needed; a signed-in visitor still gets their sidebar.
export const middleware = requirePageUser({ optional: true });

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export const handler = define.handlers({
  GET(c) {
    const rest = (c.req.param("path") ?? "").split("/").map(decodeSegment);
    const hash = rest[0] ?? "";
    const sub = "/" + rest.slice(1).join("/");
    return page({ hash, sub }, { title: "share.title" });
  },
});

// The frame (header, drawer sidebar, overlays) is routes/share/_layout.tsx.
export default define.page<typeof handler>(({ data }) => <SharePage hash={data.hash} sub={data.sub} />);
