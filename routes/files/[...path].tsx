import { define, page } from "../../define.ts";
import { Layout } from "../../components/Layout.tsx";
import { FileBrowser } from "../../islands/FileBrowser.tsx";
import { Header } from "../../islands/Header.tsx";
import { Prompts } from "../../islands/Prompts.tsx";
import { Sidebar } from "../../islands/Sidebar.tsx";
import { Toasts } from "../../islands/Toasts.tsx";
import { requirePageUser } from "../../middleware/require_page_user.ts";

export const middleware = requirePageUser();

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export const handler = define.handlers({
  GET(c) {
    const base = c.var.deps.config.baseUrl;
    const rel = new URL(c.req.url).pathname.slice(base.length + "/files".length) || "/";
    const path = rel.split("/").map(decodeSegment).join("/");
    const name = path.split("/").filter(Boolean).pop();
    return page({ path }, { title: name ?? "sidebar.myFiles" });
  },
});

export default define.page<typeof handler>(({ data }) => (
  <Layout
    header={<Header actions />}
    sidebar={<Sidebar usage />}
    overlays={
      <>
        <Prompts />
        <Toasts />
      </>
    }
  >
    <FileBrowser path={data.path} />
  </Layout>
));
