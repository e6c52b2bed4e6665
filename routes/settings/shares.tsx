import { define, page } from "../../define.ts";
import { ShareManager } from "../../islands/ShareManager.tsx";

export const handler = define.handlers({
  GET() {
    return page({}, { title: "settings.nav.shares" });
  },
});

export default define.page<typeof handler>(() => <ShareManager />);
