/**
 * Browser tests of the feedback of file operations: a success toast after copy, move, upload and paste; the
 * "Paste here" chip while the clipboard holds items; an error toast replaced by the next outcome.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  hasChromium,
  launchBrowser,
  newSession,
  openFiles,
  screenshot,
  setPrefs,
  startServer,
  writeFile,
} from "./_server.ts";
import type { E2eServer } from "./_server.ts";

const run = await hasChromium();

function row(page: Page, name: string) {
  return page.locator(`[data-testid="listing"] [data-name="${name}"]`);
}

function success(page: Page, text: string) {
  return page.getByTestId("toast-success").filter({ hasText: text }).waitFor();
}

async function exists(server: E2eServer, path: string): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if (await Deno.stat(`${server.t.root}${path}`).then(() => true, () => false)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

Deno.test({
  name: "ui3 feedback: success toasts, the paste chip, errors replaced by the next outcome",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{ username: "alice", perm: { create: true, rename: true, delete: true, download: true } }],
    });
    const browser = await launchBrowser();
    try {
      await writeFile(server, "/a.txt", "a");
      await writeFile(server, "/b.txt", "b");
      await writeFile(server, "/gone.txt", "g");
      await Deno.mkdir(`${server.t.root}/Projects`);
      await setPrefs(server, "alice", { viewMode: "list", redirectAfterCopyMove: false });
      const { page } = await newSession(browser, server, { as: "alice" });
      await openFiles(page, server, "/");

      await t.step("copy and move end with a success toast", async () => {
        await row(page, "a.txt").click();
        await page.locator('[data-action="copy"]').click();
        await page.getByTestId("folder-picker").locator('[data-name="Projects"]').click();
        const copied = success(page, "Copied: 1");
        await page.getByTestId("transfer-confirm").click();
        await copied;
        assert.ok(await exists(server, "/Projects/a.txt"));
        await row(page, "gone.txt").waitFor();
        await row(page, "gone.txt").dragTo(row(page, "Projects"));
        await success(page, "Moved: 1");
      });

      await t.step("cut shows the paste chip; a click pastes with a toast", async () => {
        await openFiles(page, server, "/");
        await row(page, "b.txt").click();
        await page.keyboard.press("Control+x");
        const chip = page.getByTestId("paste-chip");
        await chip.waitFor();
        assert.match(await chip.innerText(), /Paste here \(1\)/);
        await screenshot(page, "ui3_feedback_chip_light");
        // In-page navigation: the clipboard lives in the page.
        await row(page, "Projects").dblclick();
        await page.waitForSelector('[data-testid="files"][data-path="/Projects/"]:not([data-loading])');
        await chip.waitFor();
        const pasted = success(page, "Pasted: 1");
        await chip.locator(".paste-chip-main").click();
        await pasted;
        assert.ok(await exists(server, "/Projects/b.txt"));
        await chip.waitFor({ state: "detached" });
      });

      await t.step("Esc, then ×, empty the clipboard", async () => {
        await row(page, "a.txt").click();
        await page.keyboard.press("Control+c");
        const chip = page.getByTestId("paste-chip");
        await chip.waitFor();
        await page.keyboard.press("Escape"); // the selection first
        await page.keyboard.press("Escape"); // then the clipboard
        await chip.waitFor({ state: "detached" });
        await row(page, "a.txt").click();
        await page.keyboard.press("Control+c");
        await chip.waitFor();
        await chip.locator(".paste-chip-clear").click();
        await chip.waitFor({ state: "detached" });
      });

      await t.step("an upload ends with a success toast", async () => {
        const dir = await Deno.makeTempDir();
        await Deno.writeTextFile(`${dir}/up.txt`, "up");
        await page.locator('.actions > [data-action="upload"]').click();
        const chooser = page.waitForEvent("filechooser");
        await page.getByTestId("upload-files").click();
        const uploaded = success(page, "Uploaded: 1");
        await (await chooser).setFiles(`${dir}/up.txt`);
        await uploaded;
        await Deno.remove(dir, { recursive: true });
      });

      await t.step("an error toast gives way to the next outcome", async () => {
        await row(page, "a.txt").click();
        await Deno.remove(`${server.t.root}/Projects/a.txt`);
        await page.locator('[data-action="delete"]').click();
        await page.getByTestId("delete").getByRole("button", { name: "Delete" }).click();
        await page.getByTestId("toast-error").waitFor();
        await screenshot(page, "ui3_feedback_error");
        await row(page, "b.txt").click();
        await page.locator('[data-action="copy"]').click();
        await page.getByTestId("folder-picker").locator('[data-name=".."]').click();
        const copied = success(page, "Copied: 1");
        await page.getByTestId("transfer-confirm").click();
        await copied;
        assert.equal(await page.getByTestId("toast-error").count(), 0, "the old error is gone");
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
