/** Browser tests: the text editor (save, unsaved guard, read-only, highlighting, theme) and rendered Markdown/CSV. */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { hasChromium, launchBrowser, newSession, openFiles, startServer, writeFile } from "./_server.ts";

const run = await hasChromium();

async function openEditor(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="editor-view"] .editor-host[data-ready] .cm-content');
}

function editorText(page: Page): Promise<string> {
  return page.locator(".cm-content").evaluate((el) =>
    [...el.querySelectorAll(".cm-line")].map((l) => l.textContent).join("\n")
  );
}

Deno.test({
  name: "editor: edit and save, guard unsaved changes, keep text on failure, read-only without modify",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [
        { username: "alice", perm: { create: true, download: true, modify: true } },
        { username: "bob", perm: { download: true } },
      ],
    });
    const browser = await launchBrowser();
    try {
      const root = server.t.root;
      await writeFile(server, "/notes.txt", "hello");
      await writeFile(server, "/code.ts", "export function f(x: number): string {\n  return `${x}`;\n}\n");
      const { page } = await newSession(browser, server, { as: "alice" });

      await t.step("Ctrl+S saves the edited text and the change is there after a reload", async () => {
        await openFiles(page, server, "/notes.txt");
        await openEditor(page);
        assert.equal(
          await page.locator('[data-testid="editor-view"]').getAttribute("data-readonly"),
          "false",
        );
        await page.locator(".cm-content").click();
        await page.keyboard.press("Control+End");
        await page.keyboard.type(" world");
        await page.locator('[data-testid="editor-dirty"]').waitFor();
        await page.keyboard.press("Control+s");
        await page.locator('[data-testid="editor-dirty"]').waitFor({ state: "detached" });
        assert.equal(await Deno.readTextFile(`${root}/notes.txt`), "hello world");
        await page.reload();
        await openEditor(page);
        assert.equal(await editorText(page), "hello world");
      });

      await t.step("the Save button of the top bar saves too", async () => {
        await page.locator(".cm-content").click();
        await page.keyboard.press("Control+End");
        await page.keyboard.type("!");
        await page.locator('[data-action="save"]').click();
        await page.locator('[data-testid="editor-dirty"]').waitFor({ state: "detached" });
        assert.equal(await Deno.readTextFile(`${root}/notes.txt`), "hello world!");
      });

      await t.step("leaving with unsaved changes asks first; cancel stays, accept leaves", async () => {
        await page.locator(".cm-content").click();
        await page.keyboard.press("Control+End");
        await page.keyboard.type("?");
        await page.locator('[data-testid="editor-dirty"]').waitFor();
        const answers = [false, true];
        const asked: string[] = [];
        const onDialog = async (d: import("playwright-core").Dialog) => {
          asked.push(d.message());
          if (answers.shift()) await d.accept();
          else await d.dismiss();
        };
        page.on("dialog", onDialog);
        await page.locator(".breadcrumbs a").first().click();
        assert.equal(new URL(page.url()).pathname, "/files/notes.txt");
        assert.equal(await page.locator('[data-testid="editor-dirty"]').count(), 1);
        await page.locator(".breadcrumbs a").first().click();
        await page.waitForSelector('[data-testid="listing"]');
        page.off("dialog", onDialog);
        assert.equal(asked.length, 2);
        assert.match(asked[0], /unsaved/i);
        assert.equal(await Deno.readTextFile(`${root}/notes.txt`), "hello world!");
      });

      await t.step("the back button with unsaved changes asks too", async () => {
        await openFiles(page, server, "/");
        await page.locator('[data-testid="listing"] [data-name="notes.txt"]').dblclick();
        await openEditor(page);
        await page.locator(".cm-content").click();
        await page.keyboard.type("#");
        await page.locator('[data-testid="editor-dirty"]').waitFor();
        const answers = [false, true];
        const onDialog = async (d: import("playwright-core").Dialog) => {
          if (answers.shift()) await d.accept();
          else await d.dismiss();
        };
        page.on("dialog", onDialog);
        await page.goBack();
        await page.waitForFunction(() => location.pathname === "/files/notes.txt");
        assert.equal(await page.locator('[data-testid="editor-dirty"]').count(), 1);
        await page.goBack();
        await page.waitForSelector('[data-testid="listing"]');
        page.off("dialog", onDialog);
        assert.equal(answers.length, 0);
      });

      await t.step("a failed save shows an error and keeps the text", async () => {
        await openFiles(page, server, "/notes.txt");
        await openEditor(page);
        await Deno.remove(`${root}/notes.txt`);
        await page.locator(".cm-content").click();
        await page.keyboard.press("Control+End");
        await page.keyboard.type(" kept");
        await page.keyboard.press("Control+s");
        const toast = page.locator(".toast", { hasText: 'Cannot save "notes.txt"' });
        await toast.waitFor();
        assert.equal(await editorText(page), "hello world! kept");
        assert.equal(await page.locator('[data-testid="editor-dirty"]').count(), 1);
        await writeFile(server, "/notes.txt", "hello world!");
        await page.keyboard.press("Control+s");
        await page.locator('[data-testid="editor-dirty"]').waitFor({ state: "detached" });
        assert.equal(await Deno.readTextFile(`${root}/notes.txt`), "hello world! kept");
      });

      await t.step("code is highlighted by extension, with line numbers and search", async () => {
        await openFiles(page, server, "/code.ts");
        await openEditor(page);
        await page.waitForFunction(() =>
          [...document.querySelectorAll(".cm-line span")].some((s) => s.textContent === "function")
        );
        assert.equal(
          await page.locator(".cm-lineNumbers .cm-gutterElement").filter({ hasText: "3" }).count(),
          1,
        );
        await page.locator(".cm-content").click();
        await page.keyboard.press("Control+f");
        await page.locator(".cm-search input[name=search]").waitFor();
      });

      await t.step("a user without modify gets a read-only editor and no Save button", async () => {
        const bob = await newSession(browser, server, { as: "bob" });
        await openFiles(bob.page, server, "/code.ts");
        await openEditor(bob.page);
        assert.equal(
          await bob.page.locator('[data-testid="editor-view"]').getAttribute("data-readonly"),
          "true",
        );
        await bob.page.locator('[data-testid="editor-readonly"]').waitFor();
        assert.equal(await bob.page.locator('[data-action="save"]').count(), 0);
        await bob.page.locator(".cm-content").click();
        await bob.page.keyboard.type("zzz");
        assert.ok(!(await editorText(bob.page)).includes("zzz"));
        await bob.context.close();
      });

      await t.step("the editor follows the dark theme", async () => {
        const dark = await newSession(browser, server, { as: "alice", colorScheme: "dark" });
        await openFiles(dark.page, server, "/code.ts");
        await openEditor(dark.page);
        const bg = await dark.page.locator(".cm-editor").evaluate((el) =>
          getComputedStyle(el).backgroundColor
        );
        assert.equal(bg, "rgb(40, 44, 52)");
        await dark.context.close();
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});

Deno.test({
  name: "editor: Markdown renders as text and runs no script from the file; CSV shows as a table",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startServer({
      users: [{ username: "alice", perm: { download: true, modify: true } }],
    });
    const browser = await launchBrowser();
    try {
      await writeFile(
        server,
        "/evil.md",
        [
          "# Notes",
          "",
          "Hello **world** and [a link](other.md).",
          "",
          "<script>window.__pwned = 1; alert('script')</script>",
          "",
          '<img src="missing.png" onerror="window.__pwned = 2; alert(\'img\')">',
          "",
          "[click](javascript:window.__pwned=3)",
          "",
          '<iframe src="javascript:alert(4)"></iframe>',
        ].join("\n"),
      );
      await writeFile(server, "/table.csv", 'name;note\n"Smith; J.";"said ""hi""\nbye"\nx;y\n');
      const { page } = await newSession(browser, server, { as: "alice" });
      const dialogs: string[] = [];
      const errors: string[] = [];
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      page.on("console", (m) => {
        if (m.type() === "error" && !/missing\.png|404/.test(m.text())) errors.push(m.text());
      });

      await openFiles(page, server, "/evil.md");
      const view = page.locator('[data-testid="markdown-view"]');
      await view.waitFor();
      assert.equal(await view.locator("h1").textContent(), "Notes");
      assert.equal(await view.locator("strong").textContent(), "world");
      assert.equal(await view.locator("a", { hasText: "a link" }).getAttribute("href"), "/files/other.md");
      assert.equal(await view.locator("script, iframe").count(), 0);
      assert.equal(await view.locator("[onerror]").count(), 0);
      assert.equal(await view.locator("img").getAttribute("src"), "/api/raw/missing.png?inline=true");
      const click = await view.locator("a", { hasText: "click" }).getAttribute("href");
      assert.ok(!click || !/^javascript:/i.test(click), `href ${click}`);
      await view.locator("a", { hasText: "click" }).click();
      assert.equal(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned), undefined);
      assert.deepEqual(dialogs, []);
      assert.deepEqual(errors, []);

      await page.locator('[data-testid="editor-tab-source"]').click();
      await page.waitForSelector(".editor-host[data-ready] .cm-content");
      assert.match(await page.locator(".cm-content").textContent() ?? "", /window\.__pwned = 1/);

      // Legacy spreadsheet exports are often Windows-1252: the raw bytes (X-Encoding) let the browser decode them.
      await Deno.writeFile(
        `${server.t.root}/legacy.csv`,
        new Uint8Array([
          ...new TextEncoder().encode("drink,price\ncaf"),
          0xe9,
          ...new TextEncoder().encode(",2\n"),
        ]),
      );
      const raw = page.waitForRequest((r) =>
        r.url().endsWith("/api/resources/legacy.csv") && r.headers()["x-encoding"] === "true"
      );
      await openFiles(page, server, "/legacy.csv");
      await raw;
      await page.locator('[data-testid="csv-table"] tbody td', { hasText: "café" }).waitFor();

      await openFiles(page, server, "/table.csv");
      const table = page.locator('[data-testid="csv-table"] table');
      await table.waitFor();
      assert.deepEqual(await table.locator("thead th").allTextContents(), ["", "name", "note"]);
      const firstRow = await table.locator("tbody tr").first().locator("td").allTextContents();
      assert.deepEqual(firstRow, ["1", "Smith; J.", 'said "hi"\nbye']);
      assert.equal(await table.locator("tbody tr").count(), 2);
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
