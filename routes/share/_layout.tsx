import { define } from "../../define.ts";
import { Layout } from "../../components/Layout.tsx";
import { Header } from "../../islands/Header.tsx";
import { Prompts } from "../../islands/Prompts.tsx";
import { Sidebar } from "../../islands/Sidebar.tsx";
import { Toasts } from "../../islands/Toasts.tsx";

/** Public pages have their own frame, not the signed-in shell. */
export const config = { skipInheritedLayouts: true };

/**
 * The public share page's frame: visitors get the logged-out sidebar (Login, and Signup when it is on), users
 * their own. It stays behind the menu button here so the shared item is centred.
 */
export default define.layout(({ Component }) => (
  <Layout
    drawer
    header={<Header />}
    sidebar={<Sidebar />}
    overlays={
      <>
        <Prompts />
        <Toasts />
      </>
    }
  >
    <Component />
  </Layout>
));
