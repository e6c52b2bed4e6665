/**
 * Browser tests: themes, the mobile layout, right-to-left Arabic with every visible text translated, and the
 * screenshots of the files page (light, dark, mobile, Arabic) written to tests/_artifacts/.
 */
import assert from "node:assert/strict";
import sharp from "sharp";
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

async function fixture(server: E2eServer): Promise<void> {
  for (const d of ["Documents", "Music", "Photos", "Projects"]) await Deno.mkdir(`${server.t.root}/${d}`);
  await writeFile(server, "/notes.txt", "Shopping list\n".repeat(20));
  await writeFile(server, "/report-2026.pdf", "%PDF-1.4\n" + "x".repeat(180_000));
  await writeFile(server, "/build.sh", "#!/bin/sh\necho build\n");
  await writeFile(server, "/archive.tar.gz", "x".repeat(5_300_000));
  const image = await sharp({
    create: { width: 320, height: 240, channels: 3, background: { r: 70, g: 130, b: 200 } },
  }).jpeg().toBuffer();
  await Deno.writeFile(`${server.t.root}/holiday.jpg`, image);
}

/** Visible texts of the page: text nodes of visible elements plus aria-labels and titles of controls. */
function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      const text = n.textContent?.trim();
      // File names are not interface texts ("Music" is a folder here and a search filter label).
      if (!text || !el || el.closest("script, [data-name], .breadcrumbs li + li")) continue;
      if (el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) out.add(text);
    }
    for (const el of document.querySelectorAll("[aria-label], [title]")) {
      if (!(el as HTMLElement).checkVisibility({ visibilityProperty: true }) || el.closest("[data-name]")) {
        continue;
      }
      for (const a of ["aria-label", "title"]) {
        const v = el.getAttribute(a)?.trim();
        if (v) out.add(v);
      }
    }
    return [...out];
  });
}

Deno.test({
  name: "looks: light, dark, mobile and Arabic files page (screenshots in tests/_artifacts)",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{
        username: "alice",
        perm: { create: true, rename: true, delete: true, download: true, share: true },
      }],
    });
    const browser = await launchBrowser();
    try {
      await fixture(server);
      await setPrefs(server, "alice", { viewMode: "list", dateFormat: false });

      await t.step("light theme, list view with a selection", async () => {
        const { context, page } = await newSession(browser, server, { as: "alice" });
        await openFiles(page, server, "/");
        await page.locator('[data-name="notes.txt"]').click();
        await page.locator('[data-name="holiday.jpg"]').click({ modifiers: ["Control"] });
        assert.equal(await page.evaluate(() => document.documentElement.dataset.theme ?? ""), "");
        const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
        assert.equal(bg, "rgb(245, 246, 248)");
        await screenshot(page, "files-light");
        await page.locator('[data-action="view"]').click();
        await page.locator('[data-action="view"]').click();
        await page.locator(".listing-wrap.gallery").waitFor();
        await page.waitForFunction(() =>
          [...document.querySelectorAll<HTMLImageElement>(".row img")].every((i) =>
            i.complete && i.naturalWidth > 0
          )
        );
        await screenshot(page, "files-gallery");
        await page.locator('[data-action="view"]').click();
        await page.locator(".listing-wrap.list").waitFor();
        await context.close();
      });

      await t.step("dark theme from the user's choice", async () => {
        await setPrefs(server, "alice", { theme: "dark" });
        const { context, page } = await newSession(browser, server, { as: "alice" });
        await openFiles(page, server, "/");
        assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
        const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
        assert.equal(bg, "rgb(18, 20, 23)");
        await page.locator('[data-name="Photos"]').click();
        await page.locator('[data-action="info"]').click();
        await page.getByTestId("info").waitFor();
        await screenshot(page, "files-dark-info");
        await page.keyboard.press("Escape");
        await screenshot(page, "files-dark");
        await setPrefs(server, "alice", { theme: "" });
        await context.close();
      });

      await t.step("the system colour scheme applies when neither user nor instance chose", async () => {
        const { context, page } = await newSession(browser, server, { as: "alice", colorScheme: "dark" });
        await openFiles(page, server, "/");
        const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
        assert.equal(bg, "rgb(18, 20, 23)");
        await context.close();
      });

      await t.step("mobile: sidebar drawer, selection actions in the more menu, 44px targets", async () => {
        const { context, page } = await newSession(browser, server, {
          as: "alice",
          viewport: { width: 390, height: 844 },
        });
        await openFiles(page, server, "/");
        const sidebar = page.getByTestId("sidebar");
        assert.equal(await sidebar.isVisible(), false, "the sidebar is a hidden drawer");
        await screenshot(page, "files-mobile");
        await page.getByRole("button", { name: "Toggle sidebar" }).click();
        await sidebar.getByText("My files").waitFor({ state: "visible" });
        await page.waitForTimeout(250); // let the slide-in transition finish for the picture
        await screenshot(page, "files-mobile-drawer");
        await page.keyboard.press("Escape");
        await sidebar.waitFor({ state: "hidden" });
        await page.locator('[data-name="notes.txt"]').click();
        assert.equal(await page.locator('[data-action="delete"]').first().isVisible(), false);
        await page.getByRole("button", { name: "More" }).click();
        const menu = page.getByRole("menu");
        await menu.getByRole("menuitem", { name: "Delete" }).waitFor();
        const box = await menu.getByRole("menuitem", { name: "Delete" }).boundingBox();
        assert.ok(box && box.height >= 44, "touch target of at least 44px");
        const row = await page.locator('[data-name="notes.txt"]').boundingBox();
        assert.ok(row && row.height >= 44, "rows are at least 44px high on mobile");
        await screenshot(page, "files-mobile-more");
        await menu.getByRole("menuitem", { name: "Delete" }).click();
        await page.getByTestId("delete").waitFor();
        await page.keyboard.press("Escape");
        await context.close();
      });

      await t.step("Arabic: right-to-left and every visible text changes with the language", async () => {
        const english = await newSession(browser, server, { as: "alice" });
        await openFiles(english.page, server, "/");
        const en: Record<string, string> = JSON.parse(await Deno.readTextFile("locales/en.json"));
        const uiTexts = new Set(Object.values(en));
        const shownEnglish = (await visibleTexts(english.page)).filter((x) => uiTexts.has(x));
        assert.ok(shownEnglish.length >= 12, `English UI texts found: ${shownEnglish.join(" | ")}`);
        await english.context.close();

        await setPrefs(server, "alice", { locale: "ar" });
        const { context, page } = await newSession(browser, server, { as: "alice" });
        try {
          await openFiles(page, server, "/");
          assert.equal(await page.evaluate(() => document.documentElement.dir), "rtl");
          assert.equal(await page.evaluate(() => document.documentElement.lang), "ar");
          const arabic = new Set(await visibleTexts(page));
          const untranslated = shownEnglish.filter((x) => arabic.has(x));
          assert.deepEqual(untranslated, [], "no English UI text is left on the Arabic page");
          assert.ok(arabic.has("ملفاتي"), "My files in Arabic");
          // The sidebar sits on the right in a right-to-left layout.
          const box = await page.getByTestId("sidebar").boundingBox();
          assert.ok(box && box.x > 600, `sidebar x=${box?.x}`);
          await page.locator('[data-name="notes.txt"]').click();
          await screenshot(page, "files-arabic");
        } finally {
          await setPrefs(server, "alice", { locale: "" });
          await context.close();
        }
      });

      await t.step(
        "the browser language is used when the user has none (zh → zh-cn, he is right-to-left)",
        async () => {
          for (
            const [lang, html, dir] of [["zh", "zh-CN", "ltr"], ["he-IL", "he", "rtl"], ["xx", "en", "ltr"]]
          ) {
            const { context, page } = await newSession(browser, server, { as: "alice", locale: lang });
            await openFiles(page, server, "/");
            assert.equal(await page.evaluate(() => document.documentElement.lang), html, lang);
            assert.equal(await page.evaluate(() => document.documentElement.dir), dir, lang);
            await context.close();
          }
        },
      );
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
