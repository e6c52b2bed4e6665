/**
 * Browser tests: a folder too big to preload is fetched by the listing worker itself (with the session's token),
 * arrives whole, and a failure of the worker's request shows as any failed load does.
 */
import assert from "node:assert/strict";
import type { Browser, Request } from "playwright-core";
import {
  allHydrated,
  hasChromium,
  hydrated,
  launchBrowser,
  newSession,
  setPrefs,
  startServer,
} from "./_server.ts";
import type { E2eServer } from "./_server.ts";
import { PRELOAD_MAX_ITEMS } from "../../islands/files/use_window.ts";

const run = await hasChromium();

Deno.test({
  name: "listing worker: a folder too big to preload comes whole through the worker's own request",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server: E2eServer = await startServer({
      users: [{ username: "alice", perm: { create: true, rename: true, download: true } }],
    });
    const browser: Browser = await launchBrowser();
    try {
      const root = server.t.root;
      const count = PRELOAD_MAX_ITEMS + 1;
      await Deno.mkdir(`${root}/huge/gone`, { recursive: true });
      const writes: Promise<void>[] = [];
      for (let i = 0; i < count - 1; i++) {
        writes.push(Deno.writeTextFile(`${root}/huge/f${String(i).padStart(5, "0")}.txt`, ""));
        if (writes.length === 256) await Promise.all(writes.splice(0));
      }
      await Promise.all(writes);
      await setPrefs(server, "alice", { viewMode: "list" });
      const { context, page } = await newSession(browser, server, { as: "alice" });
      const listings: Request[] = [];
      context.on("request", (r) => {
        if (new URL(r.url()).pathname.startsWith("/api/resources/")) listings.push(r);
      });

      await t.step("no preload; one request with X-Auth; every item arrives, in display order", async () => {
        const res = await page.goto(`${server.url}/files/huge/`);
        assert.equal((await res!.text()).includes('rel="preload"'), false);
        await hydrated(page, "FileBrowser");
        await page.waitForSelector(`[data-testid="listing"][data-count="${count}"]`);
        assert.deepEqual(listings.map((r) => new URL(r.url()).pathname), ["/api/resources/huge/"]);
        assert.ok((await listings[0].allHeaders())["x-auth"], "the worker sends the session's token");
        // Folders first, then files in name order.
        assert.equal(await page.locator("#item-0").getAttribute("data-name"), "gone");
        assert.equal(await page.locator("#item-1").getAttribute("data-name"), "f00000.txt");
        await allHydrated(page);
        await page.locator("#item-1").click();
        await page.keyboard.press("End");
        await page.locator(`[data-name="f${String(count - 2).padStart(5, "0")}.txt"]`).waitFor();
      });

      await t.step("a folder gone before it is opened shows the error of its status", async () => {
        await Deno.remove(`${root}/huge/gone`);
        await page.keyboard.press("Home");
        await page.locator("#item-0").dblclick();
        await page.waitForSelector('[data-testid="error-view"]');
        assert.equal(await page.locator('[data-testid="error-view"]').getAttribute("data-status"), "404");
      });
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
