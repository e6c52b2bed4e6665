/** Browser tests: create, rename, copy/move with both conflict answers, cut/paste, delete, download, info. */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import type { Page } from "playwright-core";
import {
  hasChromium,
  launchBrowser,
  listedNames,
  newSession,
  openFiles,
  setPrefs,
  startServer,
  writeFile,
} from "./_server.ts";
import type { E2eServer } from "./_server.ts";

const run = await hasChromium();

function row(page: Page, name: string) {
  return page.locator(`[data-testid="listing"] [data-name="${name}"]`);
}

async function settled(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="files"]:not([data-loading])');
}

async function waitForNames(page: Page, names: string[]): Promise<void> {
  const current = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="listing"] [data-name]')].map((e) =>
        e.getAttribute("data-name")
      )
    );
  try {
    await page.waitForFunction(
      (expected) =>
        [...document.querySelectorAll('[data-testid="listing"] [data-name]')].map((e) =>
          e.getAttribute("data-name")
        )
          .join("/") === expected,
      names.join("/"),
      { timeout: 10_000 },
    );
  } catch (err) {
    throw new Error(`listing shows ${JSON.stringify(await current())}, expected ${JSON.stringify(names)}`, {
      cause: err,
    });
  }
}

async function exists(server: E2eServer, path: string): Promise<boolean> {
  return await Deno.stat(`${server.t.root}${path}`).then(() => true, () => false);
}

async function transfer(page: Page, action: "copy" | "move", folder: string): Promise<void> {
  await page.locator(`[data-action="${action}"]`).click();
  const picker = page.getByTestId("folder-picker");
  await picker.locator(`[data-name="${folder}"]`).click();
  await page.getByTestId("transfer-confirm").click();
}

Deno.test({
  name: "operations: create, rename, copy and move with conflicts, paste, delete, download, info",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{
        username: "alice",
        perm: { create: true, rename: true, delete: true, download: true, modify: true, share: true },
      }],
    });
    const browser = await launchBrowser();
    try {
      for (const name of ["a", "b", "c", "d", "e"]) await writeFile(server, `/${name}.txt`, `root ${name}`);
      await setPrefs(server, "alice", { viewMode: "list" });
      const { page } = await newSession(browser, server, { as: "alice" });
      await openFiles(page, server, "/");

      await t.step("New folder creates the folder and opens it", async () => {
        await page.getByTestId("sidebar").getByText("New folder").click();
        await page.getByTestId("new-dir").locator("input").fill("Projects");
        await page.keyboard.press("Enter");
        await page.waitForURL(`${server.url}/files/Projects/`);
        await settled(page);
        await page.getByTestId("empty").waitFor();
        assert.ok(await exists(server, "/Projects"));
      });

      await t.step("New file creates an empty file and shows it", async () => {
        await page.locator('.breadcrumbs a[href="/files/"]').click();
        await settled(page);
        await page.getByTestId("sidebar").getByText("New file").click();
        await page.getByTestId("new-file").locator("input").fill("todo.txt");
        await page.getByTestId("new-file").getByRole("button", { name: "Create" }).click();
        await page.waitForURL(`${server.url}/files/todo.txt`);
        assert.equal(await Deno.readTextFile(`${server.t.root}/todo.txt`), "");
        await page.goBack();
        await settled(page);
        await waitForNames(page, ["Projects", "a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "todo.txt"]);
      });

      await t.step("F2 renames the selected item", async () => {
        await row(page, "todo.txt").click();
        await page.keyboard.press("F2");
        const input = page.getByTestId("rename").locator("input");
        assert.equal(await input.inputValue(), "todo.txt");
        await input.fill("tasks.txt");
        await page.keyboard.press("Enter");
        await waitForNames(page, ["Projects", "a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "tasks.txt"]);
        assert.ok(await exists(server, "/tasks.txt"));
      });

      await writeFile(server, "/Projects/a.txt", "projects a");
      await writeFile(server, "/Projects/b.txt", "projects b");
      await writeFile(server, "/Projects/c.txt", "projects c");

      await t.step("copy onto an existing name: Rename keeps both", async () => {
        await row(page, "a.txt").click();
        await transfer(page, "copy", "Projects");
        await page.getByTestId("replace-rename").waitFor();
        await page.getByTestId("conflict-rename").click();
        await page.waitForURL(`${server.url}/files/Projects/`);
        await settled(page);
        assert.equal(await Deno.readTextFile(`${server.t.root}/Projects/a.txt`), "projects a");
        assert.equal(await Deno.readTextFile(`${server.t.root}/Projects/a(1).txt`), "root a");
        assert.ok(await exists(server, "/a.txt"), "the source stays");
      });

      await t.step("copy onto an existing name: Replace overwrites", async () => {
        await openFiles(page, server, "/");
        await row(page, "a.txt").click();
        await transfer(page, "copy", "Projects");
        await page.getByTestId("conflict-replace").click();
        await page.waitForURL(`${server.url}/files/Projects/`);
        assert.equal(await Deno.readTextFile(`${server.t.root}/Projects/a.txt`), "root a");
      });

      await t.step("move with both conflict answers", async () => {
        await openFiles(page, server, "/");
        await row(page, "b.txt").click();
        await transfer(page, "move", "Projects");
        await page.getByTestId("conflict-rename").click();
        await page.waitForURL(`${server.url}/files/Projects/`);
        assert.equal(await Deno.readTextFile(`${server.t.root}/Projects/b(1).txt`), "root b");
        assert.ok(!(await exists(server, "/b.txt")));
        await openFiles(page, server, "/");
        await row(page, "c.txt").click();
        await transfer(page, "move", "Projects");
        await page.getByTestId("conflict-replace").click();
        await page.waitForURL(`${server.url}/files/Projects/`);
        assert.equal(await Deno.readTextFile(`${server.t.root}/Projects/c.txt`), "root c");
        assert.ok(!(await exists(server, "/c.txt")));
      });

      await t.step("the move button is disabled for the current folder", async () => {
        await openFiles(page, server, "/");
        await row(page, "d.txt").click();
        await page.locator('[data-action="move"]').click();
        await page.getByTestId("folder-picker").locator('[data-name="Projects"]').waitFor();
        assert.equal(await page.getByTestId("transfer-confirm").isDisabled(), true);
        await page.keyboard.press("Escape");
        await page.getByTestId("move").waitFor({ state: "detached" });
      });

      await t.step(
        "cut and paste moves, copy and paste copies (a renamed copy in the same folder)",
        async () => {
          await row(page, "d.txt").click();
          await page.keyboard.press("Control+x");
          await row(page, "Projects").dblclick();
          await page.waitForURL(`${server.url}/files/Projects/`);
          await settled(page);
          await page.keyboard.press("Control+v");
          await page.waitForFunction(() => !!document.querySelector('[data-name="d.txt"]'));
          assert.ok(await exists(server, "/Projects/d.txt"));
          assert.ok(!(await exists(server, "/d.txt")));
          await openFiles(page, server, "/");
          await row(page, "e.txt").click();
          await page.keyboard.press("Control+c");
          await page.keyboard.press("Control+v");
          await waitForNames(page, ["Projects", "a.txt", "e(1).txt", "e.txt", "tasks.txt"]);
        },
      );

      await t.step("Delete asks (plural) and removes the selection", async () => {
        await row(page, "e.txt").click();
        await row(page, "e(1).txt").click({ modifiers: ["Control"] });
        await page.keyboard.press("Delete");
        const prompt = page.getByTestId("delete");
        assert.match(await prompt.innerText(), /these 2 items/);
        // Enter confirms once the dialog has taken the focus (as a person sees it open first).
        await page.waitForFunction(() => !!document.activeElement?.closest('[data-testid="delete"]'));
        await page.keyboard.press("Enter");
        await waitForNames(page, ["Projects", "a.txt", "tasks.txt"]);
        assert.ok(!(await exists(server, "/e.txt")) && !(await exists(server, "/e(1).txt")));
      });

      await t.step("drag and drop moves a file into a folder", async () => {
        await row(page, "tasks.txt").dragTo(row(page, "Projects"));
        await waitForNames(page, ["Projects", "a.txt"]);
        assert.ok(await exists(server, "/Projects/tasks.txt"));
      });

      await t.step("a selection downloads as a zip archive", async () => {
        await openFiles(page, server, "/Projects/");
        await row(page, "a.txt").click();
        await row(page, "b.txt").click({ modifiers: ["Control"] });
        await page.locator('[data-action="download"]').click();
        const downloading = page.waitForEvent("download");
        await page.getByTestId("download").locator('[data-format="zip"]').click();
        const download = await downloading;
        const file = await download.path();
        const bytes = await Deno.readFile(file);
        assert.deepEqual([...bytes.slice(0, 2)], [0x50, 0x4b], "a zip starts with PK");
        assert.match(download.suggestedFilename(), /\.zip$/);
      });

      await t.step(
        "prompts stack: a new folder over the move prompt; Esc pops one; focus returns",
        async () => {
          await openFiles(page, server, "/");
          await row(page, "a.txt").click();
          await page.locator('[data-action="move"]').click();
          await page.getByTestId("folder-picker").getByRole("button", { name: "New folder" }).click();
          await page.getByTestId("new-dir").waitFor();
          assert.equal(await page.getByTestId("move").count(), 0, "one prompt at a time");
          await page.keyboard.press("Escape");
          await page.getByTestId("move").waitFor();
          await page.keyboard.press("Escape");
          await page.getByTestId("move").waitFor({ state: "detached" });
          await page.waitForFunction(() => document.activeElement?.getAttribute("data-action") === "move");
          await page.keyboard.press("F1");
          await page.getByTestId("help").waitFor();
          await page.mouse.click(5, 5); // the dimmed overlay
          await page.getByTestId("help").waitFor({ state: "detached" });
        },
      );

      await t.step("info shows the size and reveals a checksum on click", async () => {
        await page.keyboard.press("Escape");
        await row(page, "a.txt").click();
        await page.locator('[data-action="info"]').click();
        const info = page.getByTestId("info");
        assert.match(await info.innerText(), /a\.txt/);
        assert.match(await info.innerText(), /6 bytes/);
        assert.equal(await info.locator("time").getAttribute("title") !== null, true, "full date as tooltip");
        await info.getByTestId("reveal-md5").click();
        const md5 = createHash("md5").update("root a").digest("hex");
        await info.getByTestId("checksum-md5").waitFor();
        assert.equal(await info.getByTestId("checksum-md5").innerText(), md5);
        await page.keyboard.press("Escape");
        await info.waitFor({ state: "detached" });
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});

Deno.test({
  name: "operations: a user without create, rename and delete does not see those actions",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startServer({ users: [{ username: "viewer", perm: { download: true } }] });
    const browser = await launchBrowser();
    try {
      await writeFile(server, "/a.txt", "a");
      await Deno.mkdir(`${server.t.root}/Docs`);
      await setPrefs(server, "viewer", { viewMode: "list" });
      const { page } = await newSession(browser, server, { as: "viewer" });
      await openFiles(page, server, "/");
      const sidebar = page.getByTestId("sidebar");
      assert.equal(await sidebar.getByText("New folder").count(), 0);
      assert.equal(await sidebar.getByText("New file").count(), 0);
      await row(page, "a.txt").click();
      await page.getByTestId("header").getByText("1 selected").waitFor();
      for (const action of ["rename", "copy", "move", "delete"]) {
        assert.equal(await page.locator(`[data-action="${action}"]`).count(), 0, action);
      }
      assert.equal(await page.locator('[data-action="download"]').count(), 1);
      assert.equal(await page.locator('[data-action="info"]').count(), 1);
      await page.keyboard.press("Delete");
      await page.keyboard.press("F2");
      assert.equal(await page.getByTestId("prompt").getAttribute("data-prompt"), null, "no prompt opened");
      assert.equal(await row(page, "a.txt").getAttribute("draggable"), "false");
      assert.deepEqual(await listedNames(page), ["Docs", "a.txt"]);
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
