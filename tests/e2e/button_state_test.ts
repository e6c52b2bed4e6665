/** Browser tests: header action buttons show a spinner while their work runs, then a check mark on success. */
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { hasChromium, launchBrowser, newSession, openFiles, startServer, writeFile } from "./_server.ts";
import type { E2eServer } from "./_server.ts";

const run = await hasChromium();

Deno.test({
  name: "button states: delete shows a spinner while the server works, then a check, then its icon",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server: E2eServer = await startServer({ users: [{ username: "alice", perm: { delete: true } }] });
    const browser: Browser = await launchBrowser();
    try {
      await writeFile(server, "/slow.txt", "x");
      await writeFile(server, "/keep.txt", "x");
      const { context, page } = await newSession(browser, server, { as: "alice" });
      await openFiles(page, server, "/");

      await t.step("a slow delete spins, succeeds with a check mark and returns to the icon", async () => {
        let release = () => {};
        const held = new Promise<void>((r) => release = r);
        await page.route(/\/api\/resources\/slow\.txt$/, async (route) => {
          if (route.request().method() === "DELETE") await held;
          await route.continue();
        });
        await page.locator('[data-name="slow.txt"]').click();
        await page.keyboard.press("Delete");
        await page.waitForFunction(() => !!document.activeElement?.closest('[data-testid="delete"]'));
        await page.keyboard.press("Enter");
        const button = page.locator('header [data-action="delete"]');
        await page.locator('header [data-action="delete"][data-state="loading"]').waitFor();
        assert.equal(await button.getAttribute("aria-busy"), "true");
        release();
        await page.locator('header [data-action="delete"][data-state="success"]').waitFor();
        await page.waitForFunction(() => !document.querySelector('[data-name="slow.txt"]'));
        // Nothing is selected any more: once the check mark is over, the button goes.
        await page.locator('header [data-action="delete"]').waitFor({ state: "detached" });
        assert.equal(await Deno.stat(`${server.t.root}/slow.txt`).then(() => true, () => false), false);
      });
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
