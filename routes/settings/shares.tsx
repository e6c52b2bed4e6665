import { define, page } from "../../define.ts";
import { ShareManager } from "../../islands/ShareManager.tsx";
import { findManagedShares } from "../../lib/share_pages.ts";

export const handler = define.handlers({
  async GET(c) {
    const links = await findManagedShares(c.var.ctx);
    return page({ links }, { title: "settings.nav.shares" });
  },
});

export default define.page<typeof handler>(({ data }) => <ShareManager links={data.links} />);
