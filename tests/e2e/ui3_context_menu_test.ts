/**
 * Browser tests of the listing's context menu: right click and Shift+F10 open the selection's actions, arrows
 * move, Esc closes; it stays inside the viewport and closes on an outside click or a scroll.
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

async function actionsOf(page: Page): Promise<string[]> {
  return await page.getByTestId("context-menu").locator("[role=menuitem]").evaluateAll((els) =>
    els.map((e) => e.getAttribute("data-action")!)
  );
}

Deno.test({
  name: "ui3 context menu: right click, keyboard, viewport, closing",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{ username: "alice", perm: { create: true, rename: true, delete: true, download: true } }],
    });
    const browser = await launchBrowser();
    try {
      for (let i = 0; i < 40; i++) await writeFile(server, `/f${String(i).padStart(2, "0")}.txt`, "x");
      await setPrefs(server, "alice", { viewMode: "list" });
      const { page } = await newSession(browser, server, {
        as: "alice",
        viewport: { width: 1280, height: 600 },
      });
      await openFiles(page, server, "/");
      const menu = page.getByTestId("context-menu");

      await t.step("a right click selects the row and offers its actions", async () => {
        await row(page, "f01.txt").click({ button: "right" });
        await menu.waitFor();
        assert.equal(await row(page, "f01.txt").getAttribute("aria-selected"), "true");
        const ids = await actionsOf(page);
        for (const id of ["rename", "copy", "move", "delete", "download", "info"]) {
          assert.ok(ids.includes(id), `${id} in ${ids}`);
        }
        assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("role")), "menuitem");
        await screenshot(page, "ui3_context_menu_light");
        await page.keyboard.press("ArrowDown");
        const second = await page.evaluate(() => document.activeElement?.getAttribute("data-action"));
        assert.equal(second, (await actionsOf(page))[1]);
        await page.keyboard.press("Escape");
        await menu.waitFor({ state: "detached" });
        assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("role")), "listbox");
        assert.equal(
          await row(page, "f01.txt").getAttribute("aria-selected"),
          "true",
          "Esc keeps the selection",
        );
      });

      await t.step("Enter on an item runs it", async () => {
        await row(page, "f01.txt").click({ button: "right" });
        await menu.waitFor();
        await menu.locator('[data-action="rename"]').focus();
        await page.keyboard.press("Enter");
        await page.getByTestId("rename").waitFor();
        await page.keyboard.press("Escape");
      });

      await t.step("Shift+F10 opens it for the focused row; an outside click closes it", async () => {
        await row(page, "f02.txt").click();
        await page.keyboard.press("Shift+F10");
        await menu.waitFor();
        await page.mouse.click(1200, 80);
        await menu.waitFor({ state: "detached" });
      });

      await t.step("near the corner it stays inside the viewport; a scroll closes it", async () => {
        const box = await row(page, "f10.txt").boundingBox();
        await page.mouse.click(box!.x + box!.width - 4, box!.y + 10, { button: "right" });
        await menu.waitFor();
        const m = (await menu.boundingBox())!;
        assert.ok(m.x >= 0 && m.x + m.width <= 1280 && m.y >= 0 && m.y + m.height <= 600, JSON.stringify(m));
        await page.mouse.wheel(0, 300);
        await menu.waitFor({ state: "detached" });
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
