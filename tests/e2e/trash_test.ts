/** Browser tests: delete into the trash, restore from Settings › Trash (with a conflict), delete permanently. */
import assert from "node:assert/strict";
import {
  allHydrated,
  hasChromium,
  launchBrowser,
  newSession,
  openFiles,
  screenshot,
  startServer,
  writeFile,
} from "./_server.ts";

const run = await hasChromium();

Deno.test({
  name: "e2e: a deleted file is listed in Settings › Trash and restored, a taken place asks first",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{ username: "alice", perm: { create: true, modify: true, delete: true, download: true } }],
    });
    const browser = await launchBrowser();
    try {
      await writeFile(server, "/a.txt", "first");
      await writeFile(server, "/b.txt", "second");
      const { page } = await newSession(browser, server, { as: "alice" });
      const row = (name: string) => page.locator(`[data-testid="listing"] [data-name="${name}"]`);
      const exists = (path: string) => Deno.stat(`${server.t.root}${path}`).then(() => true, () => false);

      await t.step("Delete moves the file to the trash", async () => {
        await openFiles(page, server, "/");
        await row("a.txt").click();
        await page.keyboard.press("Delete");
        const prompt = page.getByTestId("delete");
        await prompt.waitFor();
        assert.match(await prompt.innerText(), /trash/);
        await screenshot(page, "trash-delete-prompt");
        await prompt.getByRole("button", { name: "Delete", exact: true }).click();
        await row("a.txt").waitFor({ state: "detached" });
        assert.equal(await exists("/a.txt"), false);
      });

      await t.step("Delete permanently skips the trash", async () => {
        await row("b.txt").click();
        await page.keyboard.press("Delete");
        const prompt = page.getByTestId("delete");
        await prompt.getByLabel("Delete permanently").check();
        await prompt.getByRole("button", { name: "Delete", exact: true }).click();
        await row("b.txt").waitFor({ state: "detached" });
      });

      await t.step("Settings › Trash lists only the trashed file", async () => {
        await page.goto(`${server.url}/settings/profile`);
        await allHydrated(page);
        await page.getByTestId("settings-nav").getByRole("link", { name: "Trash" }).click();
        await page.waitForURL(/\/settings\/trash$/);
        await allHydrated(page);
        const items = page.getByTestId("trash-item");
        await items.first().waitFor();
        assert.equal(await items.count(), 1);
        assert.match(await items.first().innerText(), /\/a\.txt/);
        await screenshot(page, "trash-settings");
      });

      await t.step("restoring onto a taken name asks, and keep both restores beside it", async () => {
        await writeFile(server, "/a.txt", "newer");
        await page.getByTestId("trash-restore").click();
        const conflict = page.getByTestId("replace-rename");
        await conflict.waitFor();
        await screenshot(page, "trash-restore-conflict");
        await page.getByTestId("conflict-rename").click();
        await page.getByTestId("trash-lonely").waitFor();
        assert.equal(await Deno.readTextFile(`${server.t.root}/a(1).txt`), "first");
        assert.equal(await Deno.readTextFile(`${server.t.root}/a.txt`), "newer");
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
