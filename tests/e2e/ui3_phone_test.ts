/**
 * Browser tests on a phone (390 px, touch): a tap opens a folder or a file, a long press selects (and turns on
 * the select-multiple mode, where taps select), and breadcrumbs, sort buttons and rows are at least 44 px.
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

async function longPress(page: Page, name: string): Promise<void> {
  const box = (await row(page, name).boundingBox())!;
  const cdp = await page.context().newCDPSession(page);
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point] });
  await page.waitForTimeout(900);
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await cdp.detach();
}

Deno.test({
  name: "ui3 phone: tap opens, long press selects, touch targets of 44 px",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{ username: "alice", perm: { create: true, rename: true, delete: true, download: true } }],
    });
    const browser = await launchBrowser();
    try {
      await writeFile(server, "/Docs/Deep/inner.txt", "inner");
      await writeFile(server, "/Docs/notes.txt", "notes");
      await writeFile(server, "/Docs/todo.txt", "todo");
      await setPrefs(server, "alice", { viewMode: "list" });
      const { page } = await newSession(browser, server, {
        as: "alice",
        viewport: { width: 390, height: 844 },
        hasTouch: true,
        isMobile: true,
      });

      await t.step("a tap opens a folder, then a file", async () => {
        await openFiles(page, server, "/");
        await row(page, "Docs").tap();
        await page.waitForURL(`${server.url}/files/Docs/`);
        await page.waitForSelector('[data-testid="files"][data-path="/Docs/"]:not([data-loading])');
        await row(page, "notes.txt").tap();
        await page.waitForURL(`${server.url}/files/Docs/notes.txt`);
      });

      await t.step("a long press selects; then taps select too", async () => {
        await openFiles(page, server, "/Docs/");
        await longPress(page, "notes.txt");
        await page.locator('[data-testid="listing"] [data-name="notes.txt"][aria-selected="true"]').waitFor();
        await page.locator('[data-testid="listing"].multiple').waitFor();
        await row(page, "todo.txt").tap();
        await page.locator('[data-testid="listing"] [data-name="todo.txt"][aria-selected="true"]').waitFor();
        assert.equal(page.url(), `${server.url}/files/Docs/`, "still in the folder");
        await screenshot(page, "ui3_phone_selected");
      });

      await t.step("breadcrumbs, sort buttons and rows are at least 44 px", async () => {
        await openFiles(page, server, "/Docs/Deep/");
        const small = await page.evaluate(() =>
          [...document.querySelectorAll(".breadcrumbs a, .sort, [data-testid='listing'] [role='option']")]
            .map((el) => ({ el: el.textContent?.trim() || el.className, r: el.getBoundingClientRect() }))
            .filter(({ r }) => r.width > 0 && (r.width < 44 || r.height < 44))
            .map(({ el, r }) => `${el}: ${Math.round(r.width)}×${Math.round(r.height)}`)
        );
        assert.deepEqual(small, []);
        await screenshot(page, "ui3_phone_targets");
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
