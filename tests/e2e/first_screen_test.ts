/** Browser tests: a folder's first rows come with the page (before any script runs) and work once hydrated. */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import {
  hasChromium,
  hydrated,
  launchBrowser,
  listedNames,
  newSession,
  openFiles,
  setPrefs,
  startServer,
} from "./_server.ts";
import type { E2eServer } from "./_server.ts";

const run = await hasChromium();
const NAMES = ["<script>alert(1)", `a"b'c.txt`, "שלום עולם.txt", "日本語 ñ 🙂.txt"];

/** The boxes of the first rows, rounded. */
function rowBoxes(page: Page): Promise<number[][]> {
  return page.$$eval('[data-testid="listing"] [role="option"]', (els) =>
    els.slice(0, 8).map((e) => {
      const r = e.getBoundingClientRect();
      return [r.left, r.top, r.width, r.height].map(Math.round);
    }));
}

/** Loads a files URL with the FileBrowser script held back; returns what was there before it ran. */
async function beforeScripts(
  page: Page,
  url: string,
): Promise<{ boxes: number[][]; release(): Promise<void> }> {
  let release = () => {};
  const held = new Promise<void>((r) => release = r);
  let passed = () => {};
  const through = new Promise<void>((r) => passed = r);
  const pattern = /\/_islands\/FileBrowser\.js$/;
  await page.route(pattern, async (route) => {
    await held;
    await route.continue();
    passed();
  });
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForSelector('[data-testid="listing"] [role="option"]');
  assert.equal(await page.locator('[data-island-root="FileBrowser"][data-hydrated]').count(), 0);
  const boxes = await rowBoxes(page);
  return {
    boxes,
    async release() {
      release();
      await through;
      await page.unroute(pattern);
    },
  };
}

Deno.test({
  name:
    "first screen: the rows are in the page before scripts run, and select, open and scroll once hydrated",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server: E2eServer = await startServer({
      users: [{ username: "alice", perm: { create: true, rename: true, download: true } }],
    });
    const browser: Browser = await launchBrowser();
    try {
      const root = server.t.root;
      await Deno.mkdir(`${root}/d/sub`, { recursive: true });
      await Deno.writeTextFile(`${root}/d/sub/inner.txt`, "x");
      for (const name of NAMES) await Deno.writeTextFile(`${root}/d/${name}`, "x");
      await Deno.mkdir(`${root}/big`);
      for (let i = 0; i < 150; i++) {
        await Deno.writeTextFile(`${root}/big/f${String(i).padStart(3, "0")}.txt`, "");
      }
      await setPrefs(server, "alice", { viewMode: "list" });

      await t.step("with JavaScript off the folder's rows are there, names as they are", async () => {
        const context = await browser.newContext({
          javaScriptEnabled: false,
          viewport: { width: 1280, height: 800 },
        });
        await context.addCookies([
          { name: "auth", value: server.t.tokens.alice, url: `${server.url}/`, sameSite: "Strict" },
        ]);
        const page = await context.newPage();
        await page.goto(`${server.url}/files/d/`);
        assert.deepEqual(await listedNames(page), ["sub", ...[...NAMES].sort()]);
        for (const name of NAMES) {
          assert.equal(await page.locator('[role="option"] bdi', { hasText: name }).count(), 1, name);
        }
        assert.equal(await page.locator('[role="option"]').first().isVisible(), true);
        assert.equal(await page.locator("[data-hydrated]").count(), 0, "no script ran");
        assert.equal(await page.locator("time[title]").count(), 0, "no tooltip in the server's time zone");
        await context.close();
      });

      // A time zone the server does not have: what hydration keeps must not be the server's formatting.
      const { context, page } = await newSession(browser, server, {
        as: "alice",
        timezoneId: "Asia/Kathmandu",
      });
      const listings: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes("/api/resources/")) listings.push(new URL(r.url()).pathname);
      });

      for (const mode of ["list", "mosaic"]) {
        await t.step(
          `${mode}: hydration keeps the rows where the server put them, without a request`,
          async () => {
            await setPrefs(server, "alice", { viewMode: mode });
            listings.length = 0;
            const before = await beforeScripts(page, `${server.url}/files/d/`);
            await before.release();
            await hydrated(page, "FileBrowser");
            await page.waitForSelector('[data-testid="files"]:not([data-loading])');
            assert.deepEqual(await rowBoxes(page), before.boxes);
            assert.deepEqual(listings, [], "the first screen is the whole folder: nothing fetched");
          },
        );
      }

      await t.step("after hydration a click selects, keys move, a double click opens", async () => {
        await setPrefs(server, "alice", { viewMode: "list" });
        await openFiles(page, server, "/d/");
        const first = page.locator('[data-testid="listing"] [role="option"]').nth(1);
        await first.click();
        assert.equal(await first.getAttribute("aria-selected"), "true");
        const tooltip = await page.locator('[data-testid="listing"] time').first().evaluate((el) => {
          const time = el as HTMLTimeElement;
          const f = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "medium" });
          return [time.title, f.format(new Date(time.dateTime))];
        });
        assert.equal(tooltip[0], tooltip[1], "the date's tooltip is the browser's");
        await page.keyboard.press("ArrowDown");
        assert.equal(await page.locator(".row.focused").getAttribute("data-index"), "2");
        await page.locator('[data-name="sub"]').dblclick();
        await page.waitForSelector('[data-testid="files"][data-path="/d/sub/"]:not([data-loading])');
        assert.deepEqual(await listedNames(page), ["inner.txt"]);
      });

      await t.step("a big folder: the rest loads once, then scrolling reaches its end", async () => {
        listings.length = 0;
        const before = await beforeScripts(page, `${server.url}/files/big/`);
        assert.ok(before.boxes.length > 0);
        await before.release();
        await hydrated(page, "FileBrowser");
        await page.waitForSelector('[data-testid="listing"][data-count="150"]');
        await page.waitForSelector('[data-testid="files"]:not([data-loading])');
        assert.deepEqual(listings, ["/api/resources/big/"], "one request, for the rest");
        await page.locator('[data-name="f000.txt"]').click();
        await page.keyboard.press("End");
        await page.locator('[data-name="f149.txt"]').waitFor();
        assert.equal(await page.locator('[data-name="f149.txt"]').isVisible(), true);
        await page.keyboard.press("Control+a");
        assert.equal(await page.locator('[data-name="f149.txt"]').getAttribute("aria-selected"), "true");
      });
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
