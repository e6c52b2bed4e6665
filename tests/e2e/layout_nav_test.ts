/**
 * Browser tests of the shared layouts: with command execution on (the files page carries the shell panel), the
 * settings sections and the files page swap their main areas client-side, through the settings nav, links the
 * server rendered and the sidebar, back and forward included; a window marker proves no document load happened.
 * The settings screens render their data on the server: their first load asks the API for nothing.
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

/** True while the page is the document the test marked (no full load happened since). */
function marked(page: Page): Promise<boolean> {
  return page.evaluate(() => (globalThis as { __marker?: number }).__marker === 42);
}

async function section(page: Page, id: string, url: RegExp): Promise<void> {
  await page.locator(`[data-testid="settings-nav"] [data-section="${id}"]`).click();
  await page.waitForURL(url);
  await page.locator(`[data-testid="settings-nav"] [data-section="${id}"][aria-current="page"]`).waitFor();
  await allHydrated(page);
  assert.ok(await marked(page), `${id}: no full page load`);
}

Deno.test({
  name: "layout nav: settings sections and files ↔ settings swap client-side with command execution on",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({ config: { enableExec: true } });
    const browser = await launchBrowser();
    try {
      await writeFile(server, "/a.txt", "a");
      const { page } = await newSession(browser, server, { as: "admin" });
      const api: string[] = [];
      page.on("request", (r) => {
        const path = new URL(r.url()).pathname;
        if (/^\/api\/(settings|users|shares|trash|audit|twofa|apppasswords)/.test(path)) api.push(path);
      });
      await openFiles(page, server, "/");
      assert.equal(
        await page.locator('[data-island-root="ShellPanel"]').count(),
        1,
        "the shell panel is there",
      );
      await page.evaluate(() => (globalThis as { __marker?: number }).__marker = 42);

      await t.step("files → settings through the sidebar, then section to section", async () => {
        await page.getByTestId("sidebar-settings").click();
        await page.waitForURL(/\/settings\/profile$/);
        await page.getByTestId("settings").waitFor();
        await allHydrated(page);
        assert.ok(await marked(page), "files → settings: no full page load");
        assert.equal(await page.locator('[data-action="shell"]').count(), 0, "no shell toggle off the files");
        await section(page, "global", /\/settings\/global$/);
        await page.getByTestId("card-global").waitFor();
        await section(page, "users", /\/settings\/users$/);
        await page.locator('[data-testid="users"] tr[data-username="admin"]').waitFor();
        await section(page, "shares", /\/settings\/shares$/);
        await page.getByTestId("share-lonely").waitFor();
      });

      await t.step("a link the server rendered (edit a user) and back", async () => {
        await section(page, "users", /\/settings\/users$/);
        await page.locator('[data-testid="users"] tr[data-username="admin"] a').click();
        await page.waitForURL(/\/settings\/users\/1$/);
        await page.getByTestId("user-edit").waitFor();
        assert.ok(await marked(page), "edit link: no full page load");
        await page.goBack();
        await page.waitForURL(/\/settings\/users$/);
        await page.getByTestId("users").waitFor();
        assert.ok(await marked(page), "back: no full page load");
      });

      await t.step("settings → files and back keeps the document", async () => {
        await page.getByTestId("sidebar").getByText("My files").click();
        await page.waitForURL(/\/files\/$/);
        await page.waitForSelector('[data-testid="files"]:not([data-loading])');
        await page.locator('[data-action="shell"]').waitFor();
        assert.ok(await marked(page), "settings → files: no full page load");
        await page.goBack();
        await page.waitForURL(/\/settings\/users$/);
        await page.getByTestId("users").waitFor();
        assert.ok(await marked(page), "back to the settings: no full page load");
      });

      await t.step(
        "from a first load of the settings to the files: the shell panel opens there",
        async () => {
          await page.goto(`${server.url}/settings/audit`);
          await allHydrated(page);
          await page.evaluate(() => (globalThis as { __marker?: number }).__marker = 42);
          await page.getByTestId("sidebar").getByText("My files").click();
          await page.waitForURL(/\/files\/$/);
          await page.waitForSelector('[data-testid="files"]:not([data-loading])');
          assert.ok(await marked(page), "settings → files: no full page load");
          await page.locator('[data-testid="listing"] [data-name="a.txt"]').waitFor();
          await page.getByRole("button", { name: "Toggle shell" }).click();
          await page.getByTestId("shell").waitFor();
          await page.getByTestId("sidebar-settings").click();
          await page.waitForURL(/\/settings\/profile$/);
          await page.getByTestId("settings").waitFor();
          assert.ok(await marked(page), "files → settings: no full page load");
          assert.equal(
            await page.getByTestId("shell").isVisible(),
            false,
            "the panel shows on files pages only",
          );
        },
      );

      await t.step(
        "a first load of a settings screen asks the API nothing: its data came with the page",
        async () => {
          const paths = [
            "/settings/profile",
            "/settings/global",
            "/settings/users",
            "/settings/users/1",
            "/settings/shares",
            "/settings/trash",
            "/settings/audit",
          ];
          for (const path of paths) {
            api.length = 0;
            await page.goto(`${server.url}${path}`);
            await allHydrated(page);
            await page.getByTestId("settings").waitFor();
            assert.equal(
              await page.getByTestId("settings-loading").count(),
              0,
              `${path}: nothing left to load`,
            );
            assert.deepEqual(api, [], `${path}: no API request`);
          }
        },
      );
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
