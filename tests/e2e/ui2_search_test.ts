/** Browser tests: the search overlay says where it searches, shows details and thumbnails, and works by keyboard. */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import sharp from "sharp";
import {
  hasChromium,
  launchBrowser,
  newSession,
  openFiles,
  screenshot,
  startServer,
  writeFile,
} from "./_server.ts";

const run = await hasChromium();

async function searchDone(page: Page): Promise<string[]> {
  await page.waitForSelector('[data-testid="search"][data-status="done"]');
  return await page.$$eval(
    '[data-testid="search-results"] li',
    (els) => els.map((e) => e.getAttribute("data-rel")!),
  );
}

Deno.test({
  name:
    "search: scope line and switch, removable type chip, arrow keys, details and thumbnails, breadcrumbs in sight",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({ users: [{ username: "alice", perm: { download: true } }] });
    const browser = await launchBrowser();
    try {
      const root = server.t.root;
      await Deno.mkdir(`${root}/Documents/trips`, { recursive: true });
      await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3a7" } }).jpeg()
        .toFile(`${root}/Documents/trips/beach.jpg`);
      await writeFile(server, "/Documents/beach-notes.txt", "x".repeat(2048));
      await writeFile(server, "/Other/beach-house.txt", "elsewhere");
      for (const scheme of ["light", "dark"] as const) {
        const { page, context } = await newSession(browser, server, { as: "alice", colorScheme: scheme });
        await openFiles(page, server, "/Documents/");
        await page.keyboard.press("Control+f");
        const input = page.locator('[data-testid="search-input"]');
        await input.fill("beach");
        await page.keyboard.press("Enter");
        assert.deepEqual((await searchDone(page)).sort(), ["beach-notes.txt", "trips/beach.jpg"]);
        await page.waitForSelector('[data-testid="search-results"] img.search-thumb');
        await page.waitForSelector('[data-testid="search-results"] .search-size');
        await screenshot(page, `ui2-search-${scheme}`);
        await context.close();
      }

      const { page } = await newSession(browser, server, { as: "alice" });
      await openFiles(page, server, "/Documents/");
      const input = page.locator('[data-testid="search-input"]');
      const scope = page.locator('[data-testid="search-scope"]');

      await t.step(
        "the overlay says it searches the current folder and below, and can switch to all files",
        async () => {
          await page.keyboard.press("Control+f");
          await input.fill("beach");
          await page.keyboard.press("Enter");
          await searchDone(page);
          assert.match(await scope.textContent() ?? "", /In Documents and below/);
          await page.locator('[data-testid="search-scope-switch"]').click();
          assert.deepEqual((await searchDone(page)).sort(), [
            "Documents/beach-notes.txt",
            "Documents/trips/beach.jpg",
            "Other/beach-house.txt",
          ]);
          assert.match(await scope.textContent() ?? "", /In all files/);
          await page.locator('[data-testid="search-scope-switch"]').click();
          assert.equal((await searchDone(page)).length, 2);
        },
      );

      await t.step("the breadcrumb bar stays visible above the overlay", async () => {
        const crumbs = await page.locator(".crumbs-bar").boundingBox();
        const overlay = await page.locator('[data-testid="search"]').boundingBox();
        assert.ok(
          crumbs && overlay && overlay.y >= crumbs.y + crumbs.height - 1,
          `${crumbs?.y} ${overlay?.y}`,
        );
      });

      await t.step("results show name, folder, size, date and an image thumbnail", async () => {
        const jpg = page.locator('[data-testid="search-results"] li[data-rel="trips/beach.jpg"]');
        assert.equal(await jpg.locator(".search-name").textContent(), "beach.jpg");
        assert.equal(await jpg.locator(".search-folder").textContent(), "trips");
        const src = await jpg.locator("img.search-thumb").getAttribute("src");
        assert.match(src ?? "", /\/api\/preview\/thumb\/Documents\/trips\/beach\.jpg/);
        const txt = page.locator('[data-testid="search-results"] li[data-rel="beach-notes.txt"]');
        await txt.locator(".search-size").waitFor();
        assert.match(await txt.locator(".search-size").textContent() ?? "", /2(\.00)? KiB/);
        assert.ok((await txt.locator(".search-date").textContent() ?? "").length > 0);
      });

      await t.step("a type filter shows as a chip that removes it", async () => {
        await page.locator('[data-testid="search-type-image"]').click();
        assert.deepEqual(await searchDone(page), ["trips/beach.jpg"]);
        const chip = page.locator('[data-testid="search-chip"]');
        assert.match(await chip.textContent() ?? "", /Images/);
        await chip.click();
        assert.equal(await chip.count(), 0);
        assert.equal(
          await page.locator('[data-testid="search-type-image"]').getAttribute("aria-pressed"),
          "false",
        );
        assert.equal((await searchDone(page)).length, 2);
      });

      await t.step("ArrowDown enters the results, arrows move, ArrowUp returns, Enter opens", async () => {
        await input.focus();
        await page.keyboard.press("ArrowDown");
        const focused = () =>
          page.evaluate(() => document.activeElement?.closest("li")?.getAttribute("data-rel"));
        const order = await page.$$eval(
          '[data-testid="search-results"] li',
          (els) => els.map((e) => e.dataset.rel),
        );
        assert.equal(await focused(), order[0]);
        await page.keyboard.press("ArrowDown");
        assert.equal(await focused(), order[1]);
        await page.keyboard.press("ArrowDown");
        assert.equal(await focused(), order[1]);
        await page.keyboard.press("ArrowUp");
        await page.keyboard.press("ArrowUp");
        assert.equal(
          await page.evaluate(() => document.activeElement?.getAttribute("data-testid")),
          "search-input",
        );
        await page.keyboard.press("ArrowDown");
        const target = await focused();
        await page.keyboard.press("Enter");
        await page.waitForURL((u) => u.pathname === `/files/Documents/${target}`);
        assert.equal(await page.locator('[data-testid="search"]').count(), 0);
      });

      await t.step("phone: the overlay fits 390 px under the breadcrumbs", async () => {
        await page.setViewportSize({ width: 390, height: 800 });
        await openFiles(page, server, "/Documents/");
        await page.locator('[data-action="search"]').click();
        await input.fill("beach");
        await page.keyboard.press("Enter");
        await searchDone(page);
        await page.waitForSelector('[data-testid="search-results"] .search-size');
        await screenshot(page, "ui2-search-phone");
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
