/**
 * Browser tests of client-side navigation between the files and settings pages: the main area is swapped from a
 * partial answer, so an upload goes on (its panel stays), the clipboard stays, and back/forward work the same way.
 * Then the resume banner after a reload that left an upload record behind.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  allHydrated,
  hasChromium,
  launchBrowser,
  newSession,
  openFiles,
  startServer,
  writeFile,
} from "./_server.ts";

const run = await hasChromium();
const CHUNK = 32 * 1024;

function row(page: Page, name: string) {
  return page.locator(`[data-testid="listing"] [data-name="${name}"]`);
}

/** True while the page is the document the test marked (no full load happened since). */
function marked(page: Page): Promise<boolean> {
  return page.evaluate(() => (globalThis as { __marker?: number }).__marker === 42);
}

Deno.test({
  name: "nav: files ↔ settings without a page load keeps the upload, its panel and the clipboard",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      settings: { tus: { chunkSize: CHUNK, retryCount: 1 } },
      users: [{
        username: "alice",
        perm: { create: true, rename: true, delete: true, download: true, modify: true },
      }],
    });
    const local = await Deno.makeTempDir({ prefix: "fb-nav-e2e-" });
    const browser = await launchBrowser();
    try {
      await writeFile(server, "/a.txt", "a");
      const big = new Uint8Array(8 * CHUNK).map((_, i) => (i * 31) & 0xff);
      await Deno.writeFile(`${local}/big.bin`, big);
      const { page } = await newSession(browser, server, { as: "alice" });
      // Hold every tus PATCH until the test releases them.
      let release!: () => void;
      const held = new Promise<void>((resolve) => release = resolve);
      await page.route((url) => url.pathname.startsWith("/api/tus/"), async (route) => {
        if (route.request().method() === "PATCH") await held;
        await route.continue().catch(() => {});
      });
      await openFiles(page, server, "/");
      await page.evaluate(() => (globalThis as { __marker?: number }).__marker = 42);

      await t.step("an upload goes on while the settings open client-side", async () => {
        await row(page, "a.txt").click();
        await page.keyboard.press("Control+c");
        await page.getByTestId("paste-chip").waitFor();
        await page.locator('.actions > [data-action="upload"]').click();
        const chooser = page.waitForEvent("filechooser");
        await page.getByTestId("upload-files").click();
        await (await chooser).setFiles(`${local}/big.bin`);
        await page.getByTestId("upload-panel").waitFor();

        await page.getByTestId("sidebar-settings").click();
        await page.waitForURL(/\/settings\/profile$/);
        await page.getByTestId("settings").waitFor();
        await allHydrated(page);
        assert.ok(await marked(page), "no full page load");
        assert.equal(await page.getByTestId("files").count(), 0, "the files page left the main area");
        assert.ok(await page.getByTestId("upload-panel").isVisible(), "the upload panel stays");
        assert.match(await page.title(), /^Profile settings - /);
        // The settings screen works (its island hydrated after the swap).
        await page.locator('[data-testid="settings"] select, [data-testid="settings"] input').first()
          .waitFor();

        release();
        await page.getByTestId("upload-panel").waitFor({ state: "detached" });
        const got = await Deno.readFile(`${server.t.root}/big.bin`);
        assert.deepEqual(got, big, "the upload finished whole");
      });

      await t.step("back to the files page: the clipboard is still there", async () => {
        await page.goBack();
        await page.waitForURL(/\/files\/$/);
        await page.waitForSelector('[data-island-root="FileBrowser"][data-hydrated]');
        await page.waitForSelector('[data-testid="files"]:not([data-loading])');
        assert.ok(await marked(page), "no full page load");
        const chip = page.getByTestId("paste-chip");
        await chip.waitFor();
        assert.match(await chip.innerText(), /Paste here \(1\)/);
        await row(page, "big.bin").waitFor();
        // The header's file actions are back (the header stayed mounted).
        await page.locator('.actions > [data-action="upload"]').waitFor();
        // Forward again, then the sidebar's "My files" link.
        await page.goForward();
        await page.getByTestId("settings").waitFor();
        assert.ok(await marked(page));
        await page.getByTestId("sidebar").getByText("My files").click();
        await page.waitForURL(/\/files\/$/);
        await page.waitForSelector('[data-testid="files"]:not([data-loading])');
        assert.ok(await marked(page), "no full page load");
      });

      await t.step("after a reload with a leftover upload record, a banner offers to resume", async () => {
        await page.evaluate(() => {
          localStorage.setItem("tus::fp-test::1", JSON.stringify({ size: 10, uploadUrl: "/api/tus/x.bin" }));
        });
        await page.reload();
        await allHydrated(page);
        assert.ok(!(await marked(page)), "a real reload");
        const banner = page.getByTestId("upload-resume");
        await banner.waitFor();
        assert.match(
          await banner.innerText(),
          /Interrupted uploads: 1\. Pick the same files to resume them\./,
        );
        const chooser = page.waitForEvent("filechooser");
        await banner.getByRole("button", { name: "Pick files" }).click();
        await chooser;
        await banner.getByRole("button", { name: "Close" }).click();
        await banner.waitFor({ state: "detached" });
        await page.evaluate(() => localStorage.removeItem("tus::fp-test::1"));
      });
    } finally {
      await browser.close();
      await server.close();
      await Deno.remove(local, { recursive: true });
    }
  },
});
