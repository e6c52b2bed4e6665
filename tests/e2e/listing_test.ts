/** Browser tests: the listing — sorting, view modes, selection with mouse and keys, opening folders. */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  hasChromium,
  hydrated,
  launchBrowser,
  listedNames,
  newSession,
  openFiles,
  setPrefs,
  startServer,
  writeFile,
} from "./_server.ts";

const run = await hasChromium();

function selectedNames(page: Page): Promise<string[]> {
  return page.$$eval(
    '[data-testid="listing"] [role="option"][aria-selected="true"]',
    (els) => els.map((e) => e.getAttribute("data-name")!),
  );
}

/** Waits until exactly these items are selected (renders are asynchronous). */
async function expectSelected(page: Page, names: string[]): Promise<void> {
  await page.waitForFunction(
    (want) =>
      [...document.querySelectorAll('[data-testid="listing"] [aria-selected="true"]')]
        .map((e) => e.getAttribute("data-name")).join("/") === want,
    names.join("/"),
  ).catch(async () => assert.deepEqual(await selectedNames(page), names));
}

function row(page: Page, name: string) {
  return page.locator(`[data-testid="listing"] [data-name="${name}"]`);
}

Deno.test({
  name: "listing: sort, switch views, select with mouse and keys, open folders",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{ username: "alice", perm: { create: true, download: true } }],
    });
    const browser = await launchBrowser();
    try {
      await Deno.mkdir(`${server.t.root}/Docs`);
      await writeFile(server, "/Docs/inner.txt", "x");
      await writeFile(server, "/a.txt", "a".repeat(10));
      await writeFile(server, "/b.txt", "b".repeat(300));
      await writeFile(server, "/c.txt", "c".repeat(50));
      await setPrefs(server, "alice", { viewMode: "list", sorting: { by: "name", asc: false } });
      const { page } = await newSession(browser, server, { as: "alice" });
      await openFiles(page, server, "/");

      const settled = () => page.waitForSelector('[data-testid="files"]:not([data-loading])');
      const sortBy = async (by: string, expected: string[]) => {
        await page.locator(`[data-sort="${by}"]`).click();
        await page.waitForFunction(
          (names) =>
            [...document.querySelectorAll("[data-name]")].map((e) => e.getAttribute("data-name")).join() ===
              names,
          expected.join(),
        );
        await settled();
      };

      await t.step("folders come first, names A to Z; a click on Name flips the order", async () => {
        assert.deepEqual(await listedNames(page), ["Docs", "a.txt", "b.txt", "c.txt"]);
        await sortBy("name", ["Docs", "c.txt", "b.txt", "a.txt"]);
        assert.equal(await page.locator('[data-sort="name"]').getAttribute("data-direction"), "descending");
      });

      await t.step(
        "sorting by size (folders first, then largest first, then flipped) is saved on the user",
        async () => {
          await sortBy("size", ["Docs", "b.txt", "c.txt", "a.txt"]);
          await sortBy("size", ["Docs", "a.txt", "c.txt", "b.txt"]);
          assert.equal(await page.locator('[data-sort="size"]').getAttribute("data-direction"), "ascending");
          await openFiles(page, server, "/");
          assert.deepEqual(await listedNames(page), ["Docs", "a.txt", "c.txt", "b.txt"]);
          await sortBy("name", ["Docs", "a.txt", "b.txt", "c.txt"]);
        },
      );

      await t.step("the view button cycles list, mosaic, gallery and the choice is saved", async () => {
        await page.locator(".listing-wrap.list").waitFor();
        await page.locator('[data-action="view"]').click();
        await page.locator(".listing-wrap.mosaic").waitFor();
        await page.locator('[data-action="view"]').click();
        await page.locator(".listing-wrap.gallery").waitFor();
        await openFiles(page, server, "/");
        await page.locator(".listing-wrap.gallery").waitFor();
        await page.locator('[data-action="view"]').click();
        await page.locator(".listing-wrap.list").waitFor();
      });

      await t.step(
        "click selects one, ctrl+click adds, shift+click selects a range, Esc clears",
        async () => {
          await row(page, "a.txt").click();
          await expectSelected(page, ["a.txt"]);
          await page.getByTestId("header").getByText("1 selected").waitFor();
          await row(page, "c.txt").click({ modifiers: ["Control"] });
          await expectSelected(page, ["a.txt", "c.txt"]);
          await row(page, "Docs").click({ modifiers: ["Shift"] });
          await expectSelected(page, ["Docs", "a.txt", "b.txt", "c.txt"]);
          await page.keyboard.press("Escape");
          await expectSelected(page, []);
          await page.keyboard.press("Control+a");
          await expectSelected(page, ["Docs", "a.txt", "b.txt", "c.txt"]);
          await page.keyboard.press("Escape");
        },
      );

      await t.step("keyboard: arrows move, Space selects, Shift+arrow extends, Enter opens", async () => {
        await page.getByTestId("listing").focus();
        await page.keyboard.press("Home");
        await page.keyboard.press("ArrowDown");
        await page.keyboard.press("Space");
        await expectSelected(page, ["a.txt"]);
        await page.keyboard.press("Shift+ArrowDown");
        await expectSelected(page, ["a.txt", "b.txt"]);
        await page.waitForFunction(() => {
          const id = document.querySelector('[data-testid="listing"]')?.getAttribute("aria-activedescendant");
          return id && document.getElementById(id)?.getAttribute("data-name") === "b.txt";
        });
        await page.keyboard.press("Home");
        await page.keyboard.press("Enter");
        await page.waitForURL(`${server.url}/files/Docs/`);
        await page.waitForSelector('[data-testid="files"]:not([data-loading])');
        assert.deepEqual(await listedNames(page), ["inner.txt"]);
        await expectSelected(page, []);
        assert.equal(await page.title(), "Docs - File Browser");
      });

      await t.step("the back button returns; a double click opens a folder", async () => {
        await page.goBack();
        await page.waitForURL(`${server.url}/files/`);
        await page.waitForSelector('[data-testid="files"]:not([data-loading])');
        await row(page, "Docs").dblclick();
        await page.waitForURL(`${server.url}/files/Docs/`);
        await page.locator('.breadcrumbs a[href="/files/"]').click();
        await page.waitForURL(`${server.url}/files/`);
        await hydrated(page, "FileBrowser");
      });

      await t.step(
        "a big folder (parsed in the worker) is windowed: few rows in the DOM, End reaches the last",
        async () => {
          const dir = `${server.t.root}/big`;
          await Deno.mkdir(dir);
          const names = Array.from(
            { length: 6000 },
            (_, i) => `item-${String(i).padStart(5, "0")}-${"x".repeat(40)}.txt`,
          );
          for (let i = 0; i < names.length; i += 500) {
            await Promise.all(names.slice(i, i + 500).map((n) => Deno.writeTextFile(`${dir}/${n}`, "")));
          }
          await openFiles(page, server, "/big/");
          await page.locator('[data-testid="listing"][data-count="6000"]').waitFor();
          const rendered = await page.locator('[data-testid="listing"] [role="option"]').count();
          assert.ok(rendered > 5 && rendered < 120, `${rendered} rows in the DOM`);
          await page.getByTestId("listing").focus();
          await page.keyboard.press("End");
          await page.locator(`[data-name="${names.at(-1)}"]`).waitFor();
          assert.equal(
            await page.locator(`[data-name="${names.at(-1)}"]`).getAttribute("aria-posinset"),
            "6000",
          );
          await page.keyboard.press("Control+a");
          await page.getByTestId("header").getByText("6000 selected").waitFor();
          await page.keyboard.press("Escape");
        },
      );

      await t.step("single-click mode opens on one click", async () => {
        await setPrefs(server, "alice", { singleClick: true });
        await openFiles(page, server, "/");
        await row(page, "Docs").click();
        await page.waitForURL(`${server.url}/files/Docs/`);
        await setPrefs(server, "alice", { singleClick: false });
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
