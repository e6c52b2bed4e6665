/**
 * Browser tests of the list view: images show small lazy thumbnails, and the listbox of a large folder is as tall
 * as all its rows, so dragging the scrollbar to the bottom shows the last row.
 */
import assert from "node:assert/strict";
import {
  hasChromium,
  launchBrowser,
  newSession,
  openFiles,
  screenshot,
  setPrefs,
  startServer,
} from "./_server.ts";

const run = await hasChromium();

// A 1×1 PNG.
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

Deno.test({
  name: "ui3 list: image thumbnails in the list view, full scroll height of a 5,000-item folder",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{ username: "alice", perm: { create: true, rename: true, delete: true, download: true } }],
    });
    const browser = await launchBrowser();
    try {
      await Deno.mkdir(`${server.t.root}/pics`);
      for (const n of ["a.png", "b.png", "c.png"]) await Deno.writeFile(`${server.t.root}/pics/${n}`, PNG);
      await Deno.writeTextFile(`${server.t.root}/pics/notes.txt`, "n");
      const names = Array.from({ length: 5000 }, (_, i) => `f-${String(i).padStart(5, "0")}.txt`);
      await Deno.mkdir(`${server.t.root}/big`);
      for (let i = 0; i < names.length; i += 500) {
        await Promise.all(
          names.slice(i, i + 500).map((n) => Deno.writeTextFile(`${server.t.root}/big/${n}`, "")),
        );
      }
      await setPrefs(server, "alice", { viewMode: "list" });

      for (const scheme of ["light", "dark"] as const) {
        await t.step(`images have thumbnails in the list view (${scheme})`, async () => {
          const { context, page } = await newSession(browser, server, { as: "alice", colorScheme: scheme });
          await openFiles(page, server, "/pics/");
          await page.locator('[data-name="a.png"] img[data-thumb="loaded"]').waitFor();
          const box = await page.locator('[data-name="a.png"] img').boundingBox();
          assert.ok(
            box && box.width <= 32 && box.height <= 32,
            `a small thumbnail, got ${JSON.stringify(box)}`,
          );
          assert.equal(await page.locator('[data-name="notes.txt"] img').count(), 0, "no thumbnail for text");
          await screenshot(page, `ui3_list_thumbs_${scheme}`);
          await context.close();
        });
      }

      await t.step("the scrollbar covers all 5,000 items: its end shows the last row", async () => {
        const { context, page } = await newSession(browser, server, { as: "alice" });
        await openFiles(page, server, "/big/");
        await page.locator('[data-testid="listing"][data-count="5000"]').waitFor();
        const height = await page.getByTestId("listing").evaluate((el) => el.getBoundingClientRect().height);
        assert.ok(height >= 5000 * 39, `the listbox is ${height}px tall`);
        // Dragging the scrollbar to the bottom is a jump of the scroll position.
        await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
        await page.locator(`[data-name="${names.at(-1)}"]`).waitFor();
        const rendered = await page.locator('[data-testid="listing"] [role="option"]').count();
        assert.ok(rendered < 150, `windowed: ${rendered} rows in the DOM`);
        const last = await page.locator(`[data-name="${names.at(-1)}"]`).boundingBox();
        assert.ok(last && last.y + last.height <= 800 + 1, "the last row is in the viewport");
        await screenshot(page, "ui3_list_end");
        await context.close();
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
