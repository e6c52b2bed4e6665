import { define, page } from "../../define.ts";
import { decodePathLenient } from "../../lib/request_path.ts";
import { Layout } from "../../components/Layout.tsx";
import { Header } from "../../islands/Header.tsx";
import { Prompts } from "../../islands/Prompts.tsx";
import { SharePage } from "../../islands/SharePage.tsx";
import { Sidebar } from "../../islands/Sidebar.tsx";
import { Toasts } from "../../islands/Toasts.tsx";

export const handler = define.handlers({
  GET(c) {
    const rest = (c.req.param("path") ?? "").split("/").map(decodePathLenient);
    const hash = rest[0] ?? "";
    const sub = "/" + rest.slice(1).join("/");
    return page({ hash, sub }, { title: "share.title" });
  },
});

export default define.page<typeof handler>(({ data }) => (
  <Layout
    drawer
    header={<Header />}
    // Visitors get the logged-out sidebar (Login, and Signup when it is on); users their own. It stays behind the
    // menu button here so the shared item is centred.
    sidebar={<Sidebar />}
    overlays={
      <>
        <Prompts />
        <Toasts />
      </>
    }
  >
    <SharePage hash={data.hash} sub={data.sub} />
  </Layout>
));
