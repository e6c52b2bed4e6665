/** Browser tests: guest mode logs visitors in by itself, not right after a logout, and says so when it fails. */
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { allHydrated, hasChromium, launchBrowser, newSession, startServer } from "./_server.ts";
import type { E2eServer } from "./_server.ts";

const run = await hasChromium();

Deno.test({
  name: "guest mode: automatic guest login, none after a logout from the files, a message when it fails",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server: E2eServer = await startServer({
      users: [{ username: "guest", perm: { download: true } }],
      settings: { enableGuest: true },
    });
    const broken: E2eServer = await startServer({ settings: { enableGuest: true } });
    const browser: Browser = await launchBrowser();
    try {
      const { context, page } = await newSession(browser, server);
      const logins: string[] = [];
      page.on("request", (r) => {
        if (r.url().endsWith("/api/login")) logins.push(r.postData() ?? "");
      });

      await t.step("a visitor from elsewhere is logged in as the guest and sent to the files", async () => {
        await page.goto(`${server.url}/login`);
        await page.waitForURL(`${server.url}/files/`);
        await allHydrated(page);
        assert.equal(logins.length, 1);
        assert.equal(JSON.parse(logins[0]).username, "guest");
        await page.getByTestId("logout").waitFor();
      });

      await t.step("after a logout from /files the form stays: no second guest login", async () => {
        await page.getByTestId("logout").click();
        await page.waitForURL(/\/login/);
        await page.getByTestId("login-form").waitFor();
        await allHydrated(page);
        // Give a wrongly started automatic login time to show itself (generous: the machine is loaded).
        await page.waitForTimeout(1000);
        assert.equal(logins.length, 1);
        assert.match(page.url(), /\/login/);
        assert.equal(await page.getByTestId("login-error").count(), 0);
      });
      await context.close();

      await t.step("without a guest account the login page says the guest login failed", async () => {
        const { context, page } = await newSession(browser, broken);
        await page.goto(`${broken.url}/login`);
        const error = page.getByTestId("login-error");
        await error.waitFor();
        assert.equal(await error.innerText(), "Guest login failed");
        assert.match(page.url(), /\/login/);
        // The form stays usable for a real login.
        assert.equal(
          await page.locator('[data-testid="login-form"] button[type="submit"]').isEnabled(),
          true,
        );
        await context.close();
      });
    } finally {
      await browser.close();
      await server.close();
      await broken.close();
    }
  },
});
