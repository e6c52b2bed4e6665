/** Browser tests: "Extract here" with its conflict choice, "Calculate sizes" and the info prompt's folder size. */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { hasChromium, launchBrowser, newSession, openFiles, setPrefs, startServer } from "./_server.ts";
import { zipOf } from "../../lib/extract/_testing.ts";

const run = await hasChromium();

function row(page: Page, name: string) {
  return page.locator(`[data-testid="listing"] [data-name="${name}"]`);
}

Deno.test({
  name:
    "extract: Extract here unpacks a zip next to it; Calculate sizes fills the Size column and the info prompt",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startServer({
      users: [{ username: "alice", perm: { create: true, rename: true, modify: true, download: true } }],
    });
    const browser = await launchBrowser();
    try {
      const zip = await zipOf([
        { name: "docs/", dir: true },
        { name: "docs/a.txt", data: "a".repeat(1500) },
        { name: "docs/b.txt", data: "b".repeat(1500) },
      ]);
      await Deno.writeFile(`${server.t.root}/bundle.zip`, zip);
      await Deno.writeTextFile(`${server.t.root}/docs-existing.txt`, "x");
      await setPrefs(server, "alice", { viewMode: "list" });
      const { page } = await newSession(browser, server, { as: "alice" });
      await openFiles(page, server, "/");
      await row(page, "bundle.zip").click();
      await page.locator('[data-action="extract"]').click();
      const prompt = page.getByTestId("extract");
      await prompt.getByLabel("Keep both").check();
      await prompt.getByTestId("extract-start").click();
      await row(page, "docs").waitFor({ timeout: 15_000 });
      assert.equal(await Deno.readTextFile(`${server.t.root}/docs/a.txt`), "a".repeat(1500));
      assert.equal(await row(page, "docs").locator(".size").textContent(), "—");

      await page.keyboard.press("Escape");
      await page.locator('[data-action="folder-sizes"]').click();
      await page.waitForFunction(
        () => document.querySelector('[data-testid="listing"] [data-name="docs"] .size')?.textContent !== "—",
        undefined,
        { timeout: 15_000 },
      );
      assert.match((await row(page, "docs").locator(".size").textContent())!, /^2\.93 KiB$/);

      await row(page, "docs").click();
      await page.locator('[data-action="info"]').click();
      const size = page.getByTestId("folder-size");
      await size.getByTestId("folder-size-calculate").click();
      await page.waitForFunction(
        () =>
          /2 files, 0 folders/.test(document.querySelector('[data-testid="folder-size"]')?.textContent ?? ""),
        undefined,
        { timeout: 15_000 },
      );
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
