/**
 * Browser tests in Arabic: file names are bidi-isolated, so `.env.local` shows as `.env.local`, not `env.local.`,
 * in listing rows, breadcrumbs, prompts, the preview title and share pages.
 */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
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

/**
 * True when `name` is drawn left to right inside `scope`: the first character (`.`) sits left of the second.
 * In a right-to-left paragraph without isolation the leading `.` is drawn at the far right.
 */
async function readsLtr(scope: Locator, name: string): Promise<boolean> {
  await scope.first().waitFor();
  return await scope.first().evaluate((root, name) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent!.indexOf(name);
      if (at < 0) continue;
      const x = (i: number) => {
        const range = document.createRange();
        range.setStart(node!, at + i);
        range.setEnd(node!, at + i + 1);
        return range.getBoundingClientRect().left;
      };
      return x(0) < x(1) && x(1) < x(name.length - 1);
    }
    throw new Error(`${name} not found in ${root.outerHTML.slice(0, 200)}`);
  }, name);
}

async function assertLtr(page: Page, scope: Locator, name: string, where: string): Promise<void> {
  assert.ok(await readsLtr(scope, name), `${where}: ${name} is drawn out of order`);
  assert.equal(await page.evaluate(() => document.documentElement.dir), "rtl");
}

Deno.test({
  name: "ui rtl: names like .env.local keep their order in an Arabic page",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{
        username: "alice",
        perm: { create: true, rename: true, delete: true, modify: true, share: true, download: true },
      }],
    });
    const browser = await launchBrowser();
    try {
      await writeFile(server, "/.config/.env.local", "A=1");
      await writeFile(server, "/.config/.clip.mp4", "not really a video");
      await setPrefs(server, "alice", { viewMode: "list", locale: "ar" });
      const { page } = await newSession(browser, server, { as: "alice" });

      await t.step("listing row and breadcrumbs", async () => {
        await openFiles(page, server, "/.config/");
        await assertLtr(
          page,
          page.locator('[data-testid="listing"] [data-name=".env.local"] .name'),
          ".env.local",
          "row",
        );
        await assertLtr(page, page.locator(".breadcrumbs"), ".config", "breadcrumbs");
        await screenshot(page, "ui_rtl_listing_ar");
      });

      await t.step("rename and delete prompts", async () => {
        await page.locator('[data-testid="listing"] [data-name=".env.local"]').click();
        await page.keyboard.press("F2");
        await assertLtr(page, page.getByTestId("rename").locator("label"), ".env.local", "rename prompt");
        await screenshot(page, "ui_rtl_rename_ar");
        await page.keyboard.press("Escape");
        await page.keyboard.press("Delete");
        await assertLtr(page, page.getByTestId("delete").locator("p"), ".env.local", "delete prompt");
        await page.keyboard.press("Escape");
      });

      await t.step("preview title", async () => {
        await page.goto(`${server.url}/files/.config/.clip.mp4`);
        await assertLtr(page, page.getByTestId("preview-title"), ".clip.mp4", "preview title");
        await screenshot(page, "ui_rtl_preview_ar");
      });

      await t.step("share page", async () => {
        const res = await server.t.request("/api/share/.config/", {
          as: "alice",
          method: "POST",
          body: "{}",
        });
        const body = await res.text();
        assert.equal(res.status, 200, body);
        const { hash } = JSON.parse(body);
        const visitor = await newSession(browser, server, { locale: "ar" });
        await visitor.page.goto(`${server.url}/share/${hash}`);
        await assertLtr(visitor.page, visitor.page.getByTestId("share-name"), ".config", "share name");
        await assertLtr(
          visitor.page,
          visitor.page.locator('tr[data-name=".env.local"]'),
          ".env.local",
          "share row",
        );
        await screenshot(visitor.page, "ui_rtl_share_ar");
        await visitor.context.close();
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
