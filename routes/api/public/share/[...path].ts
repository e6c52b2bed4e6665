import { define } from "../../../../define.ts";
import { openShare, publicResource, splitSharePath } from "../../../../lib/shares.ts";
import { remoteAddress } from "../../../../middleware/conn.ts";
import type { AppContext } from "../../../../define.ts";

function shareRequestOf(c: AppContext) {
  return {
    ...splitSharePath(c.req.param("path") ?? ""),
    credentials: {
      password: c.req.header("X-SHARE-PASSWORD"),
      token: c.req.query("token"),
      client: remoteAddress(c) ?? "local",
    },
  };
}

export const handler = define.handlers({
  async GET(c) {
    const opened = await openShare(c.var.deps, c.var.settings, shareRequestOf(c));
    return c.json(await publicResource(opened));
  },
});
