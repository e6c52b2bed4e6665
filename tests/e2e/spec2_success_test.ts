/**
 * Browser tests of the success prompt and of what a route change resets: a whole folder uploaded ends in a
 * success card (not a toast) that survives a route change, while other prompts, the selection and multiple
 * selection are reset; shortcuts do nothing while a prompt is open.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  hasChromium,
  launchBrowser,
  newSession,
  openFiles,
  setPrefs,
  startServer,
  writeFile,
} from "./_server.ts";

const run = await hasChromium();

function row(page: Page, name: string) {
  return page.locator(`[data-testid="listing"] [data-name="${name}"]`);
}

Deno.test({
  name: "success prompt: a folder upload ends in it; a route change keeps it and resets everything else",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{
        username: "alice",
        perm: { create: true, rename: true, delete: true, download: true, modify: true },
      }],
    });
    const browser = await launchBrowser();
    const local = await Deno.makeTempDir();
    try {
      await Deno.mkdir(`${local}/album/inner`, { recursive: true });
      await Deno.writeTextFile(`${local}/album/a.txt`, "a");
      await Deno.writeTextFile(`${local}/album/inner/b.txt`, "b");
      await Deno.mkdir(`${server.t.root}/sub`);
      await writeFile(server, "/sub/x.txt", "x");
      await setPrefs(server, "alice", { viewMode: "list" });
      const { page } = await newSession(browser, server, { as: "alice" });
      await openFiles(page, server, "/");
      await row(page, "sub").dblclick();
      await page.waitForURL(/\/files\/sub\/$/);
      await row(page, "x.txt").waitFor();

      const prompt = page.getByTestId("success-prompt");
      await t.step("uploading a whole folder ends in the success prompt with the counts", async () => {
        await page.locator('.actions > [data-action="upload"]').click();
        await page.getByTestId("upload-prompt").waitFor();
        const chooser = page.waitForEvent("filechooser");
        await page.getByTestId("upload-folder").click();
        await (await chooser).setFiles(`${local}/album`);
        await prompt.waitFor();
        const text = await prompt.innerText();
        assert.match(text, /Success/);
        assert.match(text, /Files: 2, folders: 2/);
        assert.equal(await page.getByTestId("toast-success").count(), 0, "no toast besides the card");
        assert.equal(await Deno.readTextFile(`${server.t.root}/sub/album/inner/b.txt`), "b");
      });

      await t.step("a route change keeps the success prompt open; OK closes it", async () => {
        await page.goBack();
        await page.waitForURL(/\/files\/$/);
        await row(page, "sub").waitFor();
        assert.equal(await prompt.count(), 1);
        await prompt.getByRole("button", { name: "OK" }).click();
        await prompt.waitFor({ state: "detached" });
      });

      await t.step("shortcuts do nothing while a prompt is open", async () => {
        await row(page, "sub").click();
        await page.locator('[data-testid="listing"] [data-name="sub"][aria-selected="true"]').waitFor();
        await page.keyboard.press("F1");
        await page.getByTestId("help").waitFor();
        await page.keyboard.press("Delete");
        await page.keyboard.press("F2");
        assert.equal(await page.getByTestId("delete").count(), 0);
        assert.equal(await page.locator('[data-testid="rename"]').count(), 0);
        assert.equal(await page.getByTestId("help").count(), 1);
      });

      await t.step(
        "a route change closes other prompts and clears the selection and multiple mode (a toggle)",
        async () => {
          await page.goForward();
          await page.waitForURL(/\/files\/sub\/$/);
          await row(page, "x.txt").waitFor();
          await page.getByTestId("help").waitFor({ state: "detached" });
          assert.equal(await page.locator('[data-testid="listing"] [aria-selected="true"]').count(), 0);
          const toggle = page.locator('.action[data-action="select-multiple"]');
          await toggle.click();
          await page.locator('[data-testid="listing"].multiple').waitFor();
          await toggle.click();
          await page.locator('[data-testid="listing"]:not(.multiple)').waitFor();
          await toggle.click();
          await page.locator('[data-testid="listing"].multiple').waitFor();
          await row(page, "x.txt").click();
          await page.locator('[data-testid="listing"] [data-name="x.txt"][aria-selected="true"]').waitFor();
          await page.goBack();
          await page.waitForURL(/\/files\/$/);
          await row(page, "sub").waitFor();
          await page.locator('[data-testid="listing"]:not(.multiple)').waitFor();
          assert.equal(await page.locator('[data-testid="listing"] [aria-selected="true"]').count(), 0);
        },
      );
    } finally {
      await browser.close();
      await server.close();
      await Deno.remove(local, { recursive: true });
    }
  },
});
