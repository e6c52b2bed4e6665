/** Browser tests: tablet widths (737 to 1024 px) keep the header in one line, the sidebar in a drawer and the name wide. */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import {
  launchBrowser,
  newSession,
  openFiles,
  screenshot,
  setPrefs,
  startServer,
  writeFile,
} from "./_server.ts";
import { hasChromium } from "./_server.ts";
import type { E2eServer } from "./_server.ts";

const run = await hasChromium();

const sidebar = (page: Page) => page.getByTestId("sidebar");

/** The header's overflow in px (0 when everything fits). */
function headerOverflow(page: Page): Promise<number> {
  return page.getByTestId("header").evaluate((el) => el.scrollWidth - el.clientWidth);
}

/** Ids of the header actions that are rendered in the bar, split into shown and hidden. */
async function barActions(page: Page): Promise<{ shown: string[]; hidden: string[] }> {
  const shown: string[] = [];
  const hidden: string[] = [];
  for (const b of await page.locator(".topbar .actions > button[data-action]").all()) {
    const id = (await b.getAttribute("data-action"))!;
    (await b.isVisible() ? shown : hidden).push(id);
  }
  return { shown, hidden };
}

/** Ids of the actions shown in the opened "more" menu (closes it again). */
async function menuActions(page: Page): Promise<string[]> {
  const more = page.locator(".topbar .more-btn");
  if (!await more.isVisible()) return [];
  await more.click();
  const menu = page.getByRole("menu");
  await menu.waitFor();
  const ids = await menu.locator("[data-action]").evaluateAll((els) =>
    els.filter((e) => e.getClientRects().length > 0).map((e) => e.getAttribute("data-action")!)
  );
  await page.keyboard.press("Escape");
  await menu.waitFor({ state: "detached" });
  return ids;
}

Deno.test({
  name: "tablet widths: no header overflow, every action reachable, sidebar in a drawer, name column >= 50%",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    // Every permission and command execution on: the widest header there is (shell, share, extract, download...).
    const server: E2eServer = await startServer({
      users: [{ username: "alice", perm: "all" }],
      config: { enableExec: true },
    });
    const browser: Browser = await launchBrowser();
    try {
      await writeFile(server, "/a rather long file name for the tablet layout check.txt", "x".repeat(3000));
      await writeFile(server, "/notes.md");
      await writeFile(server, "/bundle.zip");
      await setPrefs(server, "alice", { viewMode: "list" });
      for (const width of [737, 820, 1024]) {
        await t.step(`${width} px`, async () => {
          const { context, page } = await newSession(browser, server, {
            as: "alice",
            viewport: { width, height: 900 },
          });
          await openFiles(page, server, "/");

          // The sidebar is a drawer: hidden until the menu button opens it.
          assert.equal(await sidebar(page).isVisible(), false, "sidebar hidden");
          const toggle = page.getByRole("button", { name: "Toggle sidebar" });
          await toggle.click();
          await page.waitForFunction(() => {
            const nav = document.querySelector('[data-testid="sidebar"]')!;
            return getComputedStyle(nav).visibility === "visible" && nav.getBoundingClientRect().left >= 0;
          });
          assert.equal(await sidebar(page).getByRole("link", { name: "My files" }).isVisible(), true);
          await page.keyboard.press("Escape");
          await page.waitForFunction(() =>
            getComputedStyle(document.querySelector('[data-testid="sidebar"]')!).visibility === "hidden"
          );

          // The name column keeps at least half of the listing.
          const ratio = await page.evaluate(() => {
            const listing =
              document.querySelector(".listing-wrap.list .listing")!.getBoundingClientRect().width;
            const name = document.querySelector(".row .name")!.getBoundingClientRect().width;
            return name / listing;
          });
          assert.ok(ratio >= 0.5, `name column is ${(ratio * 100).toFixed(1)}% of the listing`);

          // Page actions, then selection actions (the widest header).
          for (const state of ["page", "selection"]) {
            if (state === "selection") {
              await page.locator('[data-name="bundle.zip"]').click();
              await page.locator(".selection-info").waitFor();
            }
            assert.ok(await headerOverflow(page) <= 0, `header overflows with ${state} actions`);
            const { shown, hidden } = await barActions(page);
            assert.ok(shown.length + hidden.length > 0);
            const inMenu = await menuActions(page);
            for (const id of hidden) {
              assert.ok(inMenu.includes(id), `${id} is neither in the bar nor in the menu`);
            }
            for (const id of shown) {
              assert.ok(!inMenu.includes(id), `${id} is both in the bar and in the menu`);
            }
            // The room there is is used: at 1024 px the page actions fit in the bar.
            if (width === 1024 && state === "page") assert.ok(shown.length >= 4, "the bar keeps what fits");
            if (state === "selection") assert.ok(inMenu.includes("delete") || shown.includes("delete"));
          }
          await screenshot(page, `ui4-tablet-${width}`);
          if (width === 737) {
            // Wider again: the moved actions come back to the bar; narrower: they go again.
            const before = (await barActions(page)).hidden.length;
            assert.ok(before > 0, "at 737 px with a selection some actions are in the menu");
            await page.setViewportSize({ width: 1024, height: 900 });
            await page.waitForFunction(() => !document.querySelector(".topbar .action.overflowed"));
            assert.ok(await headerOverflow(page) <= 0);
            await page.setViewportSize({ width: 737, height: 900 });
            await page.waitForFunction(() => document.querySelector(".topbar .action.overflowed") !== null);
            assert.ok(await headerOverflow(page) <= 0);
            await page.locator(".topbar .more-btn").click();
            await page.getByRole("menu").waitFor();
            await screenshot(page, "ui4-tablet-737-menu");
            await page.keyboard.press("Escape");
          }
          await context.close();
        });
      }
      await t.step("phone, 390 px: every action but search is in the menu", async () => {
        const { context, page } = await newSession(browser, server, {
          as: "alice",
          viewport: { width: 390, height: 844 },
        });
        await openFiles(page, server, "/");
        await page.locator('[data-name="bundle.zip"]').click();
        await page.locator(".selection-info").waitFor();
        assert.ok(await headerOverflow(page) <= 0);
        const { shown, hidden } = await barActions(page);
        assert.deepEqual(shown, ["search"]);
        assert.deepEqual((await menuActions(page)).sort(), hidden.sort());
        await screenshot(page, "ui4-tablet-phone-390");
        await context.close();
      });
      await t.step("dark, 820 px, sidebar open", async () => {
        const { context, page } = await newSession(browser, server, {
          as: "alice",
          viewport: { width: 820, height: 900 },
          colorScheme: "dark",
        });
        await openFiles(page, server, "/");
        await page.getByRole("button", { name: "Toggle sidebar" }).click();
        await sidebar(page).getByRole("link", { name: "My files" }).waitFor();
        await page.waitForTimeout(300);
        await screenshot(page, "ui4-tablet-820-dark-drawer");
        await context.close();
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
