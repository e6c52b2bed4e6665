/** Browser tests: the files page shows folders first in every sort order, with no size for folders. */
import assert from "node:assert/strict";
import {
  hasChromium,
  launchBrowser,
  listedNames,
  newSession,
  openFiles,
  screenshot,
  setPrefs,
  startServer,
  writeFile,
} from "./_server.ts";

const run = await hasChromium();

Deno.test({
  name: "ui sort: folders first by name, size and modified, both directions",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({ users: [{ username: "alice" }] });
    const browser = await launchBrowser();
    try {
      const root = server.t.root;
      await writeFile(server, "/small.txt", "x");
      await writeFile(server, "/big.txt", "x".repeat(5000));
      // A folder holding many entries has a bigger directory inode than an empty one.
      for (let i = 0; i < 200; i++) await writeFile(server, `/Zoo/${"n".repeat(40)}${i}`, "");
      await Deno.mkdir(`${root}/Attic`);
      const day = 86_400;
      const now = Date.now() / 1000;
      await Deno.utime(`${root}/small.txt`, now, now);
      await Deno.utime(`${root}/big.txt`, now - day, now - day);
      await Deno.utime(`${root}/Zoo`, now - 2 * day, now - 2 * day);
      await Deno.utime(`${root}/Attic`, now - 3 * day, now - 3 * day);
      const { page } = await newSession(browser, server, { as: "alice" });
      const orders: [string, boolean, string[]][] = [
        ["name", false, ["Attic", "Zoo", "big.txt", "small.txt"]],
        ["name", true, ["Zoo", "Attic", "small.txt", "big.txt"]],
        ["size", false, ["Attic", "Zoo", "big.txt", "small.txt"]],
        ["size", true, ["Attic", "Zoo", "small.txt", "big.txt"]],
        ["modified", false, ["Zoo", "Attic", "small.txt", "big.txt"]],
        ["modified", true, ["Attic", "Zoo", "big.txt", "small.txt"]],
      ];
      for (const [by, asc, want] of orders) {
        await t.step(`${by} ${asc ? "asc" : "desc"}`, async () => {
          await setPrefs(server, "alice", { viewMode: "list", sorting: { by, asc } });
          await openFiles(page, server, "/");
          assert.deepEqual(await listedNames(page), want);
        });
      }
      await t.step("folders show no size", async () => {
        const size = page.locator('[data-testid="listing"] [data-name="Zoo"] .size');
        assert.equal((await size.innerText()).trim(), "—");
        await screenshot(page, "ui_sort_light");
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
