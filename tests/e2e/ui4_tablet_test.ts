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

/** Ids of the actions in the opened "more" menu (closes it again). */
async function menuActions(page: Page): Promise<string[]> {
  const more = page.locator(".topbar .more-btn");
  if (!await more.isVisible()) return [];
  await more.click();
  const menu = page.getByRole("menu");
  await menu.waitFor();
  const ids = await menu.locator("[data-action]").evaluateAll((els) =>
    els.map((e) => e.getAttribute("data-action")!)
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
    const server: E2eServer = await startServer({
      users: [{
        username: "alice",
        perm: { admin: true, create: true, rename: true, modify: true, delete: true },
      }],
    });
    const browser: Browser = await launchBrowser();
    try {
      await writeFile(server, "/a rather long file name for the tablet layout check.txt", "x".repeat(3000));
      await writeFile(server, "/notes.md");
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
              await page.locator('[data-name="notes.md"]').click();
              await page.locator(".selection-info").waitFor();
            }
            assert.ok(await headerOverflow(page) <= 0, `header overflows with ${state} actions`);
            const { shown, hidden } = await barActions(page);
            assert.ok(shown.length + hidden.length > 0);
            const inMenu = await menuActions(page);
            for (const id of hidden) {
              assert.ok(inMenu.includes(id), `${id} is neither in the bar nor in the menu`);
            }
            if (state === "selection") assert.ok(inMenu.includes("delete") || shown.includes("delete"));
          }
          await screenshot(page, `ui4-tablet-${width}`);
          await context.close();
        });
      }
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
