/** Browser tests: listing thumbnails load lazily, retry failures and fall back to the icon. */
import assert from "node:assert/strict";
import sharp from "sharp";
import type { Browser } from "playwright-core";
import { hasChromium, launchBrowser, newSession, openFiles, setPrefs, startServer } from "./_server.ts";
import type { E2eServer } from "./_server.ts";

const run = await hasChromium();
const COUNT = 60;

Deno.test({
  name: "thumbnails: near images load, far ones wait, a flaky one is retried, a broken one keeps its icon",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server: E2eServer = await startServer({
      users: [{ username: "alice", perm: { create: true, download: true } }],
    });
    const browser: Browser = await launchBrowser();
    try {
      await Deno.mkdir(`${server.t.root}/photos`);
      const png = await sharp({
        create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 80, b: 40 } },
      })
        .png().toBuffer();
      for (let i = 0; i < COUNT; i++) {
        await Deno.writeFile(`${server.t.root}/photos/p${String(i).padStart(2, "0")}.png`, png);
      }
      await setPrefs(server, "alice", { viewMode: "mosaic gallery" });
      const { context, page } = await newSession(browser, server, {
        as: "alice",
        viewport: { width: 900, height: 600 },
      });
      const requested = new Map<string, number>();
      await page.route(/\/api\/preview\/thumb\//, async (route) => {
        const name = new URL(route.request().url()).pathname.split("/").pop()!;
        const n = (requested.get(name) ?? 0) + 1;
        requested.set(name, n);
        // p01 fails twice then loads; p02 always fails.
        if ((name === "p01.png" && n < 3) || name === "p02.png") {
          await route.fulfill({ status: 503, body: "busy" });
          return;
        }
        await route.continue();
      });

      await t.step(
        "images on and near the screen load; the far end of the folder is not requested",
        async () => {
          await openFiles(page, server, "/photos/");
          await page.locator('[data-name="p00.png"] img[data-thumb="loaded"]').waitFor();
          assert.ok(!requested.has(`p${COUNT - 1}.png`), "the last image was requested without scrolling");
        },
      );

      await t.step("a thumbnail that fails twice is shown after the third attempt", async () => {
        await page.locator('[data-name="p01.png"] img[data-thumb="loaded"]').waitFor();
        assert.equal(requested.get("p01.png"), 3);
      });

      await t.step("a thumbnail that always fails keeps the file icon after three attempts", async () => {
        await page.locator('[data-name="p02.png"] [data-thumb="failed"] svg').waitFor();
        assert.equal(requested.get("p02.png"), 3);
      });

      await t.step("scrolling to the end loads the last images", async () => {
        await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
        // The windowed listing renders the last rows once the scroll gets there; bring the last one into view.
        await page.locator(`[data-name="p${COUNT - 1}.png"]`).scrollIntoViewIfNeeded();
        await page.locator(`[data-name="p${COUNT - 1}.png"] img[data-thumb="loaded"]`).waitFor();
      });
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
