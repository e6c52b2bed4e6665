/**
 * Browser tests: an archive of a selection is named after its folder, the copy/move picker chooses a folder
 * created inside it, and an --accent set by the custom stylesheet recolours the selection.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  hasChromium,
  launchBrowser,
  newSession,
  openFiles,
  screenshot,
  setPrefs,
  startServer,
  writeFile,
} from "./_server.ts";

const run = await hasChromium();

function row(page: Page, name: string) {
  return page.locator(`[data-testid="listing"] [data-name="${name}"]`);
}

Deno.test({
  name: "ui3 naming: selection archives, a new folder in the picker, the accent of a custom stylesheet",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{ username: "alice", perm: { create: true, rename: true, delete: true, download: true } }],
      settings: { customCss: ":root { --accent: rgb(200, 0, 0); }" },
    });
    const browser = await launchBrowser();
    try {
      await writeFile(server, "/Documents/a.txt", "a");
      await writeFile(server, "/Documents/b.txt", "b");
      await setPrefs(server, "alice", { viewMode: "list" });
      const { page } = await newSession(browser, server, { as: "alice" });

      await t.step("a selection downloads as Documents.zip", async () => {
        await openFiles(page, server, "/Documents/");
        await row(page, "a.txt").click();
        await row(page, "b.txt").click({ modifiers: ["Control"] });
        await page.locator('[data-action="download"]').click();
        const downloading = page.waitForEvent("download");
        await page.getByTestId("download").locator('[data-format="zip"]').click();
        const download = await downloading;
        assert.equal(download.suggestedFilename(), "Documents.zip");
        await download.cancel();
      });

      await t.step("the selection takes its colour from --accent", async () => {
        await openFiles(page, server, "/Documents/");
        await row(page, "a.txt").click();
        const bg = await row(page, "a.txt").evaluate((el) => getComputedStyle(el).backgroundColor);
        // rgb(…) in 0–255 or color(srgb …) in 0–1.
        const scale = bg.startsWith("color(") ? 255 : 1;
        const [r, g, b] = (bg.match(/[\d.]+/g) ?? []).map((n) => Number(n) * scale);
        assert.ok(r > g + 20 && r > b + 20, `a red accent gives a reddish selection, got ${bg}`);
        await screenshot(page, "ui3_naming_accent");
      });

      await t.step("a folder created in the move picker becomes the destination", async () => {
        await openFiles(page, server, "/Documents/");
        await row(page, "a.txt").click();
        await page.locator('[data-action="move"]').click();
        const picker = page.getByTestId("folder-picker");
        await picker.getByRole("button", { name: "New folder" }).click();
        await page.getByTestId("new-dir").locator("input").fill("Fresh");
        await page.getByTestId("new-dir").locator("input").press("Enter");
        await picker.locator('[data-name="Fresh"][aria-selected="true"]').waitFor();
        await screenshot(page, "ui3_naming_picker");
        await page.getByTestId("transfer-confirm").click();
        await page.waitForFunction(() => !document.querySelector('[data-testid="move"]'));
        const moved = async () =>
          await Deno.stat(`${server.t.root}/Documents/Fresh/a.txt`).then(() => true, () => false);
        for (let i = 0; i < 50 && !(await moved()); i++) await new Promise((r) => setTimeout(r, 100));
        assert.ok(await moved(), "a.txt is in the new folder");
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
