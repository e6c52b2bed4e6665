/**
 * Browser tests of the select-multiple mode: the check boxes sit in a column of their own and never cover an
 * icon or a thumbnail, in the list, mosaic and gallery views, on a desktop and on a phone, left to right and in
 * Arabic.
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

// A 1×1 PNG: a real image, so the thumbnail views draw it.
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

async function multipleOn(page: Page, phone: boolean): Promise<void> {
  if (phone) {
    await page.locator(".more-btn").click();
    await page.locator('.menu-item[data-action="select-multiple"]').click();
  } else {
    await page.locator('.action[data-action="select-multiple"]').click();
  }
  await page.locator('[data-testid="listing"].multiple').waitFor();
}

/** Rows whose check box overlaps the icon or thumbnail, or is not shown. */
function overlaps(page: Page): Promise<string[]> {
  return page.$$eval('[data-testid="listing"] [role="option"]', (rows) =>
    rows.flatMap((row) => {
      const check = row.querySelector(".check")!.getBoundingClientRect();
      const thumb = row.querySelector(".thumb")!.getBoundingClientRect();
      const icon = getComputedStyle(row.querySelector(".thumb")!).visibility === "hidden";
      const hidden = icon || check.width === 0 ||
        getComputedStyle(row.querySelector(".check")!).display === "none";
      const apart = check.right <= thumb.left || check.left >= thumb.right || check.bottom <= thumb.top ||
        check.top >= thumb.bottom;
      const inside = check.left >= row.getBoundingClientRect().left - 1 &&
        check.right <= row.getBoundingClientRect().right + 1;
      return hidden || !apart || !inside ? [row.getAttribute("data-name")!] : [];
    }));
}

async function checkModes(
  server: E2eServer,
  page: Page,
  opts: { phone: boolean; tag: string; rtl?: boolean },
): Promise<void> {
  for (const mode of ["list", "mosaic", "mosaic gallery"]) {
    await setPrefs(server, "alice", { viewMode: mode });
    await openFiles(page, server, "/");
    await multipleOn(page, opts.phone);
    await page.locator('[data-testid="listing"] [data-name="b.txt"]').click();
    const bad = await overlaps(page);
    assert.deepEqual(bad, [], `${opts.tag} ${mode}: check boxes cover the icons of ${bad.join(", ")}`);
    if (opts.rtl) {
      // The check column is at the inline start: the right side in Arabic.
      const side = await page.$eval('[data-testid="listing"] [data-name="b.txt"]', (row) => {
        const c = row.querySelector(".check")!.getBoundingClientRect();
        const t = row.querySelector(".thumb")!.getBoundingClientRect();
        return c.left > t.left ? "right" : "left";
      });
      if (mode !== "mosaic gallery") assert.equal(side, "right", `${mode}: check column on the ${side}`);
    }
    await screenshot(page, `ui3_multiple_${opts.tag}_${mode.replace(" ", "_")}`);
  }
}

Deno.test({
  name: "ui3 multiple: check boxes have their own column in every view",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{ username: "alice", perm: { create: true, rename: true, delete: true, download: true } }],
    });
    const browser = await launchBrowser();
    try {
      await Deno.mkdir(`${server.t.root}/Folder`);
      await writeFile(server, "/b.txt", "text");
      await Deno.writeFile(`${server.t.root}/photo.png`, PNG);

      await t.step("desktop, light", async () => {
        const { context, page } = await newSession(browser, server, { as: "alice" });
        await checkModes(server, page, { phone: false, tag: "light" });
        await context.close();
      });
      await t.step("desktop, dark", async () => {
        const { context, page } = await newSession(browser, server, { as: "alice", colorScheme: "dark" });
        await checkModes(server, page, { phone: false, tag: "dark" });
        await context.close();
      });
      await t.step("phone 390 px", async () => {
        const { context, page } = await newSession(browser, server, {
          as: "alice",
          viewport: { width: 390, height: 844 },
          hasTouch: true,
          isMobile: true,
        });
        await checkModes(server, page, { phone: true, tag: "phone" });
        await context.close();
      });
      await t.step("Arabic", async () => {
        await setPrefs(server, "alice", { locale: "ar" });
        const { context, page } = await newSession(browser, server, { as: "alice" });
        await checkModes(server, page, { phone: false, tag: "ar", rtl: true });
        await context.close();
        await setPrefs(server, "alice", { locale: "en" });
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
