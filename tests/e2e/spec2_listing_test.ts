/**
 * Browser tests of listing details: Ctrl+S asks for an archive format (one button each), the info prompt's
 * relative time with the full date as tooltip, the absolute-date preference, the search prompt leaving the page
 * undimmed, what a user without rename or create cannot do (drag rows, make a folder in the picker) and the picker's
 * single-click behaviour.
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
  name: "listing details: archive formats, info dates, date format, search overlay, no rename or create",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [
        { username: "alice", perm: { create: true, rename: true, delete: true, download: true } },
        { username: "carol", perm: { rename: true, download: true } },
        { username: "dave", perm: { download: true } },
        { username: "erin", perm: { rename: true, download: true } },
      ],
    });
    const browser = await launchBrowser();
    try {
      await writeFile(server, "/old.txt", "old");
      await writeFile(server, "/docs/inner.txt", "inner");
      const threeDaysAgo = new Date(Date.now() - 3 * 86400_000);
      await Deno.utime(`${server.t.root}/old.txt`, threeDaysAgo, threeDaysAgo);
      for (const name of ["alice", "carol", "dave", "erin"]) {
        await setPrefs(server, name, { viewMode: "list" });
      }
      const { page } = await newSession(browser, server, { as: "alice" });
      await openFiles(page, server, "/");

      await t.step("Ctrl+S in a listing offers one button per archive format and downloads", async () => {
        await page.keyboard.press("Control+s");
        const prompt = page.getByTestId("download");
        await prompt.waitFor();
        const formats = await prompt.locator("[data-format]").evaluateAll((els) =>
          els.map((e) => e.getAttribute("data-format"))
        );
        assert.deepEqual(formats, ["zip", "tar", "targz", "tarbz2", "tarxz", "tarlz4", "tarsz"]);
        const download = page.waitForEvent("download");
        await prompt.locator('[data-format="targz"]').click();
        assert.match((await download).suggestedFilename(), /\.tar\.gz$/);
        await prompt.waitFor({ state: "detached" });
      });

      await t.step("info shows the modification time relative, the full date as tooltip", async () => {
        await row(page, "old.txt").click();
        await page.locator('[data-action="info"]').click();
        const time = page.getByTestId("info").locator("time");
        assert.match(await time.innerText(), /3 days ago/);
        const title = await time.getAttribute("title") ?? "";
        assert.match(title, new RegExp(String(threeDaysAgo.getFullYear())));
        await page.getByTestId("info").getByRole("button", { name: "OK" }).click();
        await page.getByTestId("info").waitFor({ state: "detached" });
      });

      await t.step("the date format preference shows full dates in the listing", async () => {
        const time = row(page, "old.txt").locator("time");
        assert.match(await time.innerText(), /3 days ago/);
        await setPrefs(server, "alice", { dateFormat: true });
        await openFiles(page, server, "/");
        const full = await time.getAttribute("title");
        assert.ok(full);
        assert.equal((await time.innerText()).trim(), full);
        await setPrefs(server, "alice", { dateFormat: false });
      });

      await t.step("the search prompt opens without dimming the page", async () => {
        await page.keyboard.press("Control+f");
        await page.getByTestId("search-input").waitFor();
        const dialog = page.locator("dialog.prompt[open]");
        assert.ok(await dialog.evaluate((d) => d.classList.contains("no-overlay")));
        assert.equal(await dialog.evaluate((d) => d.matches(":modal")), false);
        await page.keyboard.press("Escape");
        await page.getByTestId("search-input").waitFor({ state: "detached" });
      });

      await t.step(
        "without create the move picker has no New folder; without rename rows do not drag",
        async () => {
          const carol = await newSession(browser, server, { as: "carol" });
          await openFiles(carol.page, server, "/");
          assert.equal(await row(carol.page, "old.txt").getAttribute("draggable"), "true");
          await row(carol.page, "old.txt").click();
          await carol.page.locator('[data-action="move"]').click();
          await carol.page.getByTestId("folder-picker").locator('[data-name="docs"]').waitFor();
          assert.equal(
            await carol.page.getByTestId("move").getByRole("button", { name: "New folder" }).count(),
            0,
          );
          await carol.context.close();
          const dave = await newSession(browser, server, { as: "dave" });
          await openFiles(dave.page, server, "/");
          assert.equal(await row(dave.page, "old.txt").getAttribute("draggable"), "false");
          await dave.context.close();
        },
      );
      await t.step("Enter confirms the copy prompt (a copy into the same folder is renamed)", async () => {
        await openFiles(page, server, "/");
        await row(page, "old.txt").click();
        await page.locator('.actions [data-action="copy"]').click();
        await page.getByTestId("folder-picker").locator('[data-name="docs"]').waitFor();
        await page.waitForFunction(() => !!document.activeElement?.closest('[data-testid="copy"]'));
        await page.keyboard.press("Enter");
        await row(page, "old(1).txt").waitFor();
        assert.equal(await Deno.readTextFile(`${server.t.root}/old(1).txt`), "old");
        assert.equal(await page.getByTestId("new-dir").count(), 0);
      });

      await t.step(
        "New folder from the picker creates it where the picker is and does not open it",
        async () => {
          await openFiles(page, server, "/");
          await row(page, "old.txt").click();
          await page.locator('[data-action="move"]').click();
          const picker = page.getByTestId("folder-picker");
          await picker.locator('[data-name="docs"]').dblclick();
          await picker.locator('[data-name=".."]').waitFor();
          await picker.getByRole("button", { name: "New folder" }).click();
          await page.getByTestId("new-dir").locator("input").fill("deep");
          await page.getByTestId("new-dir").locator("input").press("Enter");
          await picker.locator('[data-name="deep"][aria-selected="true"]').waitFor();
          assert.ok((await Deno.stat(`${server.t.root}/docs/deep`)).isDirectory);
          assert.match(page.url(), /\/files\/$/);
          await page.getByTestId("move").getByRole("button", { name: "Cancel" }).click();
          await page.getByTestId("move").waitFor({ state: "detached" });
        },
      );

      await t.step("the picker follows the single-click preference", async () => {
        const picker = (p: Page) => p.getByTestId("folder-picker");
        // Double-click user: one click chooses the folder and stays.
        const carol = await newSession(browser, server, { as: "carol" });
        await openFiles(carol.page, server, "/");
        await row(carol.page, "old.txt").click();
        await carol.page.locator('[data-action="move"]').click();
        await picker(carol.page).locator('[data-name="docs"]').click();
        await picker(carol.page).locator('[data-name="docs"][aria-selected="true"]').waitFor();
        assert.equal(await picker(carol.page).locator('[data-name=".."]').count(), 0);
        await carol.context.close();
        // Single-click user: one click enters the folder.
        await setPrefs(server, "erin", { singleClick: true });
        const erin = await newSession(browser, server, { as: "erin" });
        await openFiles(erin.page, server, "/");
        await row(erin.page, "old.txt").click({ modifiers: ["Control"] });
        await erin.page.locator('[data-action="move"]').click();
        await picker(erin.page).locator('[data-name="docs"]').click();
        await picker(erin.page).locator('[data-name=".."]').waitFor();
        await erin.context.close();
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
