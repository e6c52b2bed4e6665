/** Browser tests: the sidebar's disk-usage bar and its failure prompt. */
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { hasChromium, launchBrowser, newSession, openFiles, startServer } from "./_server.ts";
import type { E2eServer } from "./_server.ts";

const run = await hasChromium();

Deno.test({
  name: "sidebar: the disk-usage bar shows used of total; a failure opens the error prompt",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server: E2eServer = await startServer({ users: [{ username: "alice", perm: { create: true } }] });
    const browser: Browser = await launchBrowser();
    try {
      await Deno.mkdir(`${server.t.root}/Docs`);
      const { context, page } = await newSession(browser, server, { as: "alice" });

      await t.step("the bar shows binary-unit sizes and a rounded percentage", async () => {
        const usage = page.waitForResponse((r) => /\/api\/usage\//.test(r.url()));
        await openFiles(page, server, "/");
        const body = await (await usage).json() as { used: number; total: number };
        assert.ok(body.total > 0 && body.used >= 0 && body.used <= body.total);
        const bar = page.getByTestId("usage");
        await bar.waitFor();
        // The sizes are wrapped in U+2068/U+2069 so they keep their order in right-to-left text.
        const text = (await bar.locator("span").innerText()).replace(/[\u2068\u2069]/g, "");
        assert.match(text, /^[\d.,]+ (B|KiB|MiB|GiB|TiB|PiB) of [\d.,]+ (B|KiB|MiB|GiB|TiB|PiB) used$/);
        const pct = Number(await bar.locator("progress").getAttribute("value"));
        assert.equal(pct, Math.round((body.used / body.total) * 100));
      });

      await t.step("a failed usage call shows 'Something went wrong' with the reason", async () => {
        await page.route(/\/api\/usage\//, (route) => route.fulfill({ status: 403, body: "403 Forbidden" }));
        await openFiles(page, server, "/Docs/");
        const prompt = page.getByTestId("error-prompt");
        await prompt.waitFor();
        assert.match(await prompt.innerText(), /Something went wrong/);
        assert.match(await prompt.innerText(), /permission/i);
        await prompt.getByRole("button", { name: "OK" }).click();
        await prompt.waitFor({ state: "detached" });
        assert.equal(await page.getByTestId("usage").count(), 0);
      });
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
