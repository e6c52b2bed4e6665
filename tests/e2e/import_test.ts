/** Browser test of moving in from filebrowser: an imported user logs in, an imported share link opens. */
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { importFilebrowser } from "../../lib/import/mod.ts";
import {
  hasChromium,
  hydrated,
  launchBrowser,
  newSession,
  screenshot,
  startServer,
  writeFile,
} from "./_server.ts";

const run = await hasChromium();
const SMALL = new URL("../fixtures/filebrowser/small.db", import.meta.url);

Deno.test({
  name: "import: an imported user logs in with the old password; an imported share opens with its password",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer();
    const browser: Browser = await launchBrowser();
    try {
      await writeFile(server, "/alice/docs/report.txt", "quarterly");
      await writeFile(server, "/alice/photos/cat.txt", "meow");
      await importFilebrowser(server.t.deps.kv, await Deno.readFile(SMALL), { replace: true });

      await t.step("alice logs in with her filebrowser password and sees her scope", async () => {
        const { context, page } = await newSession(browser, server);
        await page.goto(`${server.url}/login`);
        await hydrated(page, "Login");
        await page.getByPlaceholder("Username").fill("alice");
        await page.getByPlaceholder("Password").fill("alice-secret-1");
        await page.getByRole("button", { name: "Login" }).click();
        await page.waitForURL(`${server.url}/files/`);
        await page.waitForSelector('[data-testid="files"]:not([data-loading])');
        const names = await page.$$eval(
          '[data-testid="listing"] [role="option"]',
          (els) => els.map((e) => e.getAttribute("data-name")),
        );
        assert.deepEqual(names.sort(), ["docs", "photos"]);
        await context.close();
      });

      await t.step("the admin sees the import note under Settings › Global", async () => {
        const { context, page } = await newSession(browser, server);
        await page.goto(`${server.url}/login`);
        await hydrated(page, "Login");
        await page.getByPlaceholder("Username").fill("admin");
        await page.getByPlaceholder("Password").fill("admin-old-password");
        await page.getByRole("button", { name: "Login" }).click();
        await page.waitForURL(`${server.url}/files/`);
        await page.goto(`${server.url}/settings/global`);
        await hydrated(page, "SettingsGlobal");
        const note = page.getByTestId("imported-note");
        await note.waitFor();
        assert.match(
          (await note.textContent())!,
          /Imported from filebrowser on .*3 users and 3 shares imported/,
        );
        await note.locator("summary").click();
        assert.match((await note.textContent())!, /\[unclosed/);
        await screenshot(page, "import-settings-note");
        await context.close();
      });

      await t.step("a visitor opens the imported share link with its old password", async () => {
        const { context, page } = await newSession(browser, server);
        await page.goto(`${server.url}/share/pw5678xy`);
        await hydrated(page, "SharePage");
        await page.getByTestId("share-password-input").fill("share-pass");
        await page.getByTestId("share-password-submit").click();
        await page.getByText("cat.txt").first().waitFor();
        await page.goto(`${server.url}/share/aBcD1234`);
        await hydrated(page, "SharePage");
        await page.getByTestId("share-info").waitFor();
        assert.equal(await page.getByTestId("share-name").textContent(), "report.txt");
        await context.close();
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
