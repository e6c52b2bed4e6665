/** Browser tests: axe-core finds no critical or serious WCAG A/AA violation on the main screens, light and dark. */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { seriousViolations } from "./_axe.ts";
import type { AxeFinding } from "./_axe.ts";
import {
  allHydrated,
  hasChromium,
  hydrated,
  launchBrowser,
  newSession,
  openFiles,
  screenshot,
  setPrefs,
  startServer,
  writeFile,
} from "./_server.ts";

const run = await hasChromium();

/** Findings accepted on purpose (none at the moment). */
function isKnown(_f: AxeFinding): boolean {
  return false;
}

Deno.test({
  name:
    "accessibility: no critical or serious axe violations and one h1 on every main screen, light and dark",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startServer();
    const browser = await launchBrowser();
    const problems: string[] = [];
    try {
      const root = server.t.root;
      await Deno.mkdir(`${root}/docs`, { recursive: true });
      await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3a7" } }).jpeg()
        .toFile(`${root}/photo.jpg`);
      await writeFile(server, "/notes.txt", "some notes");
      await writeFile(server, "/docs/a.txt", "a");
      const made = await server.t.request("/api/share/docs/", { as: "admin", method: "POST", body: "{}" });
      const { hash } = await made.json();

      const check = async (page: Page, screen: string, options: { h1?: boolean } = {}) => {
        const found: AxeFinding[] = await seriousViolations(page);
        for (const f of found.filter((f) => !isKnown(f))) {
          problems.push(`${screen}: ${f.impact} ${f.id} (${f.help}) ${f.targets.join(" | ")}`);
        }
        if (options.h1 !== false) {
          const h1 = await page.locator("h1").count();
          if (h1 !== 1) problems.push(`${screen}: ${h1} <h1> elements`);
        }
      };
      for (const scheme of ["light", "dark"] as const) {
        const prompt = async (page: Page, name: string, open: () => Promise<void>) => {
          await open();
          await page.locator(`dialog[data-prompt="${name}"]`).waitFor();
          await check(page, `${scheme} prompt ${name}`, { h1: false });
          await page.keyboard.press("Escape");
          await page.locator(`dialog[data-prompt="${name}"]`).waitFor({ state: "detached" }).catch(() => {});
          await page.locator("dialog[open]").waitFor({ state: "detached" });
        };

        const anon = await newSession(browser, server, { colorScheme: scheme });
        await anon.page.goto(`${server.url}/login`);
        await hydrated(anon.page, "Login");
        await check(anon.page, `${scheme} login`);
        await anon.page.goto(`${server.url}/share/${hash}`);
        await hydrated(anon.page, "SharePage");
        await anon.page.getByTestId("share-items").waitFor();
        await check(anon.page, `${scheme} public share`);
        await anon.context.close();

        const { page, context } = await newSession(browser, server, { as: "admin", colorScheme: scheme });
        for (const mode of ["list", "mosaic", "mosaic gallery"]) {
          await setPrefs(server, "admin", { viewMode: mode });
          await openFiles(page, server, "/");
          await check(page, `${scheme} files ${mode}`);
        }
        await setPrefs(server, "admin", { viewMode: "list" });
        await openFiles(page, server, "/");
        await prompt(page, "newDir", () => page.getByRole("button", { name: "New folder" }).click());
        await prompt(page, "search", async () => {
          await page.locator('[data-action="search"]').click();
          await page.locator('[data-testid="search-input"]').fill("a");
          await page.locator('[data-testid="search-type-image"]').click();
          await page.locator('[data-testid="search"][data-status="done"]').waitFor();
        });
        await prompt(page, "upload", () => page.locator('[data-action="upload"]').click());
        await page.locator('[data-testid="listing"] [data-name="notes.txt"]').click();
        for (const action of ["delete", "share", "info"]) {
          await prompt(page, action, () => page.locator(`[data-action="${action}"]`).click());
        }
        await page.goto(`${server.url}/files/photo.jpg`);
        await page.waitForSelector('[data-testid="preview"][data-ready]');
        await allHydrated(page);
        await check(page, `${scheme} preview`);
        await page.goto(`${server.url}/files/notes.txt`);
        await page.waitForSelector('[data-testid="editor-view"] .editor-host[data-ready] .cm-content');
        await check(page, `${scheme} editor`);
        for (
          const [path, island] of [
            ["profile", "SettingsProfile"],
            ["global", "SettingsGlobal"],
            ["users", "SettingsUsers"],
          ]
        ) {
          await page.goto(`${server.url}/settings/${path}`);
          await hydrated(page, island);
          await allHydrated(page);
          await check(page, `${scheme} settings ${path}`);
          if (path === "global") await screenshot(page, `ui2-a11y-settings-${scheme}`);
        }
        await context.close();
      }
      const phone = await newSession(browser, server, { as: "admin", viewport: { width: 390, height: 800 } });
      await phone.page.goto(`${server.url}/settings/global`);
      await hydrated(phone.page, "SettingsGlobal");
      await check(phone.page, "phone settings global");
      await screenshot(phone.page, "ui2-a11y-settings-phone");
      await phone.context.close();
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
