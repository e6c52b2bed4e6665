/** Browser tests: the editor is a full screen with close (Esc), download, rename, share, delete and info. */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { hasChromium, launchBrowser, newSession, openFiles, startServer, writeFile } from "./_server.ts";
import type { E2eServer } from "./_server.ts";

const run = await hasChromium();

async function editorOpen(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="editor-view"] .editor-host[data-ready="true"]');
}

Deno.test({
  name:
    "editor bar: close and Esc, download, rename, share, delete, info; a new Markdown file opens on its source",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server: E2eServer = await startServer({
      users: [{
        username: "alice",
        perm: { create: true, download: true, modify: true, rename: true, delete: true, share: true },
      }],
    });
    const browser: Browser = await launchBrowser();
    try {
      await writeFile(server, "/docs/notes.txt", "hello");
      await writeFile(server, "/docs/empty.md", "");
      const { context, page } = await newSession(browser, server, { as: "alice" });
      const bar = page.locator("header");

      await t.step(
        "the bar offers the file's actions; Esc closes back to the folder with the file focused",
        async () => {
          await openFiles(page, server, "/docs/notes.txt");
          await editorOpen(page);
          for (
            const id of ["editor-close", "editor-download", "editor-rename", "editor-share", "editor-delete"]
          ) {
            assert.equal(await bar.locator(`[data-action="${id}"]`).count(), 1, id);
          }
          await page.locator(".cm-content").click();
          await page.keyboard.press("Control+f");
          await page.locator(".cm-search input[name=search]").waitFor();
          await page.keyboard.press("Escape");
          await page.locator(".cm-search").waitFor({ state: "detached" });
          assert.match(new URL(page.url()).pathname, /notes\.txt$/, "Esc closed the search panel only");
          await page.locator(".cm-content").click();
          await page.keyboard.press("Escape");
          await page.waitForURL(`${server.url}/files/docs/`);
          await page.waitForFunction(() => {
            const list = document.querySelector('[data-testid="listing"]');
            const id = list?.getAttribute("aria-activedescendant");
            return !!id && document.getElementById(id)?.getAttribute("data-name") === "notes.txt";
          });
        },
      );

      await t.step("the close button leaves too; download saves the file", async () => {
        await openFiles(page, server, "/docs/notes.txt");
        await editorOpen(page);
        const download = page.waitForEvent("download");
        await bar.locator('[data-action="editor-download"]').click();
        assert.equal((await download).suggestedFilename(), "notes.txt");
        await bar.locator('[data-action="editor-close"]').click();
        await page.waitForURL(`${server.url}/files/docs/`);
      });

      await t.step("rename from the editor keeps it open under the new name", async () => {
        await openFiles(page, server, "/docs/notes.txt");
        await editorOpen(page);
        await bar.locator('[data-action="editor-rename"]').click();
        const input = page.getByTestId("rename").locator("input");
        await input.fill("todo.txt");
        await input.press("Enter");
        await page.waitForURL(`${server.url}/files/docs/todo.txt`);
        await editorOpen(page);
        assert.equal(await Deno.readTextFile(`${server.t.root}/docs/todo.txt`), "hello");
      });

      await t.step("share and info open their prompts for the open file", async () => {
        await bar.locator('[data-action="editor-share"]').click();
        await page.getByTestId("share").waitFor();
        await page.keyboard.press("Escape");
        await page.getByTestId("share").waitFor({ state: "detached" });
        await bar.locator('[data-action="editor-info"]').click();
        const info = page.getByTestId("info");
        await info.waitFor();
        assert.match(await info.innerText(), /todo\.txt/);
        await page.keyboard.press("Escape");
      });

      await t.step("delete from the editor removes the file and returns to the folder", async () => {
        await bar.locator('[data-action="editor-delete"]').click();
        await page.getByTestId("delete").waitFor();
        await page.waitForFunction(() => !!document.activeElement?.closest('[data-testid="delete"]'));
        await page.keyboard.press("Enter");
        await page.waitForURL(`${server.url}/files/docs/`);
        assert.equal(await Deno.stat(`${server.t.root}/docs/todo.txt`).catch(() => null), null);
      });

      await t.step("a new (empty) Markdown file opens on its source, ready to type", async () => {
        await openFiles(page, server, "/docs/empty.md");
        await editorOpen(page);
        assert.equal(await page.locator(".editor-host").isVisible(), true);
        assert.equal(await page.getByTestId("editor-tab-source").getAttribute("aria-selected"), "true");
      });
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
