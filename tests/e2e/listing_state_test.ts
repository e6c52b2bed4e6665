/** Browser tests: the listing's loading state and its layout after a window resize. */
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { hasChromium, launchBrowser, newSession, openFiles, setPrefs, startServer } from "./_server.ts";
import type { E2eServer } from "./_server.ts";

const run = await hasChromium();

Deno.test({
  name: "listing state: 'Loading…' shows with the skeleton; a resize recomputes the gallery columns",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server: E2eServer = await startServer({ users: [{ username: "alice", perm: { create: true } }] });
    const browser: Browser = await launchBrowser();
    try {
      await Deno.mkdir(`${server.t.root}/Slow`);
      for (let i = 0; i < 40; i++) await Deno.writeTextFile(`${server.t.root}/f${i}.txt`, "x");
      const { context, page } = await newSession(browser, server, { as: "alice" });

      await t.step("a slow folder shows the visible 'Loading…' text over the skeleton rows", async () => {
        await openFiles(page, server, "/");
        let release = () => {};
        const held = new Promise<void>((r) => release = r);
        await page.route(/\/api\/resources\/Slow\//, async (route) => {
          await held;
          await route.continue();
        });
        await page.locator('[data-name="Slow"]').dblclick();
        const skeleton = page.getByTestId("skeleton");
        await skeleton.waitFor();
        const label = skeleton.getByText("Loading…");
        assert.equal(await label.isVisible(), true);
        const box = await label.boundingBox();
        assert.ok(box && box.width > 10 && box.height > 5, "the text takes visible space");
        release();
        await skeleton.waitFor({ state: "detached" });
        await page.unroute(/\/api\/resources\/Slow\//);
      });

      await t.step("resizing the window changes the number of gallery columns", async () => {
        await setPrefs(server, "alice", { viewMode: "mosaic gallery" });
        await page.setViewportSize({ width: 1400, height: 800 });
        await openFiles(page, server, "/");
        const columns = () =>
          page.evaluate(() => {
            const tops = [...document.querySelectorAll('[data-testid="listing"] [role="option"]')]
              .map((e) => Math.round(e.getBoundingClientRect().top));
            return tops.filter((top) => top === tops[0]).length;
          });
        const wide = await columns();
        await page.setViewportSize({ width: 800, height: 800 });
        await page.waitForFunction((n) => {
          const tops = [...document.querySelectorAll('[data-testid="listing"] [role="option"]')]
            .map((e) => Math.round(e.getBoundingClientRect().top));
          return tops.filter((top) => top === tops[0]).length < n;
        }, wide);
        const narrow = await columns();
        assert.ok(narrow >= 2 && narrow < wide, `columns ${wide} → ${narrow}`);
      });
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
