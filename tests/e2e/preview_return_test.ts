/** Browser tests: zoom starts at 100% per image, focus returns to the item, right-to-left arrows, rename. */
import assert from "node:assert/strict";
import sharp from "sharp";
import type { Browser, Page } from "playwright-core";
import { hasChromium, launchBrowser, newSession, openFiles, setPrefs, startServer } from "./_server.ts";
import type { E2eServer } from "./_server.ts";

const run = await hasChromium();

async function shown(page: Page, path: string): Promise<void> {
  await page.waitForSelector(`[data-testid="preview"][data-ready][data-path="${path}"]`);
}

Deno.test({
  name: "preview: zoom resets per image, Esc returns focus to the item, RTL arrows, rename from the preview",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server: E2eServer = await startServer({
      users: [{ username: "alice", perm: { rename: true, download: true } }],
    });
    const browser: Browser = await launchBrowser();
    try {
      await Deno.mkdir(`${server.t.root}/pics`);
      for (const [name, r] of [["a.png", 200], ["b.png", 40], ["c.png", 90]] as const) {
        await sharp({ create: { width: 800, height: 600, channels: 3, background: { r, g: 120, b: 60 } } })
          .png().toFile(`${server.t.root}/pics/${name}`);
      }
      const { context, page } = await newSession(browser, server, { as: "alice" });

      await t.step("an image zoomed in is followed by the next one at 100%", async () => {
        await openFiles(page, server, "/pics/a.png");
        await shown(page, "/pics/a.png");
        const status = page.getByTestId("preview-status");
        await page.locator('[data-testid="preview"] button[aria-label="Zoom in"]').click();
        await page.waitForFunction(() =>
          document.querySelector('[data-testid="preview-status"]')?.textContent !== "100%"
        );
        assert.notEqual(await status.textContent(), "100%");
        await page.keyboard.press("ArrowRight");
        await shown(page, "/pics/b.png");
        await page.waitForFunction(() =>
          document.querySelector('[data-testid="preview-status"]')?.textContent === "100%"
        );
      });

      await t.step("Esc closes the preview and the listing's focus is on the item it showed", async () => {
        await page.keyboard.press("Escape");
        await page.waitForFunction(() => {
          const list = document.querySelector('[data-testid="listing"]');
          const id = list?.getAttribute("aria-activedescendant");
          return document.activeElement === list && !!id &&
            document.getElementById(id)?.getAttribute("data-name") === "b.png";
        });
      });

      await t.step("in a right-to-left page ArrowLeft goes to the next image", async () => {
        await setPrefs(server, "alice", { locale: "ar" });
        await openFiles(page, server, "/pics/a.png");
        await shown(page, "/pics/a.png");
        assert.equal(await page.evaluate(() => document.documentElement.dir), "rtl");
        await page.keyboard.press("ArrowLeft");
        await shown(page, "/pics/b.png");
        await page.keyboard.press("ArrowRight");
        await shown(page, "/pics/a.png");
        await setPrefs(server, "alice", { locale: "en" });
      });

      await t.step("rename from the preview renames the file and shows it under its new name", async () => {
        await openFiles(page, server, "/pics/c.png");
        await shown(page, "/pics/c.png");
        await page.locator('[data-testid="preview"] button[aria-label="Rename"]').click();
        const input = page.getByTestId("rename").locator("input");
        await input.fill("renamed.png");
        await input.press("Enter");
        await shown(page, "/pics/renamed.png");
        assert.equal(new URL(page.url()).pathname, "/files/pics/renamed.png");
        assert.ok(await Deno.stat(`${server.t.root}/pics/renamed.png`));
        assert.equal(await Deno.stat(`${server.t.root}/pics/c.png`).catch(() => null), null);
      });
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
