/** Browser tests: the search overlay — open/close keys, text and type filters, paging, opening results. */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { hasChromium, launchBrowser, newSession, openFiles, startServer, writeFile } from "./_server.ts";

const run = await hasChromium();

async function searchDone(page: Page): Promise<string[]> {
  await page.waitForSelector('[data-testid="search"][data-status="done"]');
  return await page.$$eval(
    '[data-testid="search-results"] li',
    (els) => els.map((e) => e.getAttribute("data-rel")!),
  );
}

Deno.test({
  name: "search: Ctrl+F opens, Enter searches, type filters, Esc closes, results open, 50 more on scroll",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{ username: "alice", perm: { download: true, create: true } }],
    });
    const browser = await launchBrowser();
    try {
      const root = server.t.root;
      await Deno.mkdir(`${root}/docs/sub`, { recursive: true });
      await Deno.mkdir(`${root}/docs/cats`, { recursive: true });
      await sharp({ create: { width: 8, height: 8, channels: 3, background: "#888" } }).jpeg()
        .toFile(`${root}/docs/cat.jpg`);
      await writeFile(server, "/docs/cat-notes.txt", "meow");
      await writeFile(server, "/docs/sub/catalog.pdf", "%PDF-1.4\n%%EOF\n");
      await writeFile(server, "/docs/dog.txt", "woof");
      await writeFile(server, "/other/cat2.jpg", "x");
      for (let i = 0; i < 120; i++) {
        await writeFile(server, `/docs/many/item-${String(i).padStart(3, "0")}.log`, "");
      }
      const { page } = await newSession(browser, server, { as: "alice" });
      await openFiles(page, server, "/docs/");
      const input = page.locator('[data-testid="search-input"]');

      await t.step(
        "Ctrl+F opens the overlay with the focus in the field; an empty Enter does nothing",
        async () => {
          await page.keyboard.press("Control+f");
          await input.waitFor();
          assert.equal(await input.evaluate((el) => el === document.activeElement), true);
          await page.keyboard.press("Enter");
          assert.equal(await page.locator('[data-testid="search"]').getAttribute("data-status"), "idle");
        },
      );

      await t.step("Enter searches the current folder and its subfolders only", async () => {
        await input.fill("  cat ");
        await page.keyboard.press("Enter");
        const found = await searchDone(page);
        assert.deepEqual([...found].sort(), ["cat-notes.txt", "cat.jpg", "cats", "sub/catalog.pdf"]);
      });

      await t.step("a query past the limits says why, without asking the server", async () => {
        const asked: string[] = [];
        const listen = (req: { url(): string }) => {
          if (req.url().includes("/api/search")) asked.push(req.url());
        };
        page.on("request", listen);
        await input.fill(Array.from({ length: 33 }, (_, i) => `w${i}`).join(" "));
        await page.keyboard.press("Enter");
        await page.waitForSelector('[data-testid="search"][data-status="error"]');
        assert.equal(
          await page.locator('[data-testid="search-status"]').textContent(),
          "Search too long: at most 32 words and 500 characters.",
        );
        page.off("request", listen);
        assert.deepEqual(asked, []);
        await input.fill("cat");
        await page.keyboard.press("Enter");
        assert.equal((await searchDone(page)).length, 4);
      });

      await t.step("Escape closes the overlay", async () => {
        await page.keyboard.press("Escape");
        await page.locator('[data-testid="search"]').waitFor({ state: "detached" });
      });

      await t.step("type filters narrow the results, with or without text", async () => {
        await page.locator('[data-action="search"]').click();
        await input.waitFor();
        await page.locator('[data-testid="search-type-image"]').click();
        assert.deepEqual(await searchDone(page), ["cat.jpg"]);
        await page.locator('[data-testid="search-type-pdf"]').click();
        assert.deepEqual(await searchDone(page), ["sub/catalog.pdf"]);
        assert.equal(
          await page.locator('[data-testid="search-type-image"]').getAttribute("aria-pressed"),
          "false",
        );
        await input.fill("dog");
        await page.keyboard.press("Enter");
        assert.deepEqual(await searchDone(page), []);
        await page.locator('[data-testid="search-type-pdf"]').click();
        assert.deepEqual(await searchDone(page), ["dog.txt"]);
      });

      await t.step("50 results show first and 50 more when scrolled near the end", async () => {
        await input.fill("item-");
        await page.keyboard.press("Enter");
        assert.equal((await searchDone(page)).length, 50);
        assert.match(await page.locator('[data-testid="search-status"]').textContent() ?? "", /120/);
        await page.locator(".search-scroll").evaluate((el) => el.scrollTop = el.scrollHeight);
        await page.waitForFunction(() =>
          document.querySelectorAll('[data-testid="search-results"] li').length === 100
        );
      });

      await t.step("a result opens its file, a folder result its listing", async () => {
        await input.fill("catalog");
        await page.keyboard.press("Enter");
        assert.deepEqual(await searchDone(page), ["sub/catalog.pdf"]);
        await page.locator('[data-testid="search-results"] a').first().click();
        await page.waitForSelector('[data-testid="preview"][data-path="/docs/sub/catalog.pdf"]');
        assert.equal(await page.locator('[data-testid="search"]').count(), 0);
        await openFiles(page, server, "/docs/");
        await page.keyboard.press("Control+f");
        await input.fill("cats");
        await page.keyboard.press("Enter");
        assert.deepEqual(await searchDone(page), ["cats"]);
        await page.locator('[data-testid="search-results"] a').first().click();
        await page.waitForSelector('[data-testid="files"][data-path="/docs/cats/"]:not([data-loading])');
        assert.equal(new URL(page.url()).pathname, "/files/docs/cats/");
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
