/** Browser tests of the login form: human verification through the widget, and the redirect target. */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { TEST_PASSWORD } from "../_helpers.ts";
import { FAKE_SECRET, FAKE_SITE_KEY, startFakeCaptcha } from "../fixtures/fake_captcha.ts";
import { hasChromium, hydrated, launchBrowser, newSession, screenshot, startServer } from "./_server.ts";

const run = await hasChromium();

async function fillLogin(page: Page): Promise<void> {
  await page.getByPlaceholder("Username").fill("alice");
  await page.getByPlaceholder("Password").fill(TEST_PASSWORD);
}

Deno.test({
  name: "login: the human-verification widget loads from the provider and gates the form",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const fake = startFakeCaptcha();
    const server = await startServer({
      users: [{ username: "alice", perm: { download: true } }],
      config: { recaptcha: { host: fake.url, key: FAKE_SITE_KEY, secret: FAKE_SECRET } },
    });
    const browser: Browser = await launchBrowser();
    try {
      await t.step(
        "an unsolved widget shows wrong credentials without a request; a solved one logs in",
        async () => {
          const { context, page } = await newSession(browser, server);
          const logins: string[] = [];
          page.on("request", (r) => r.url().includes("/api/login") && logins.push(r.url()));
          const violations: string[] = [];
          page.on("console", (m) => /Content Security Policy/i.test(m.text()) && violations.push(m.text()));
          await page.goto(`${server.url}/login?redirect=%2Ffiles%2F`);
          await hydrated(page, "Login");
          await page.getByTestId("fake-captcha").waitFor();
          const submit = page.getByRole("button", { name: "Login" });
          await page.waitForFunction(() =>
            !document.querySelector<HTMLButtonElement>("button[type=submit]")?.disabled
          );
          await fillLogin(page);
          await submit.click();
          await page.getByTestId("login-error").waitFor();
          assert.equal(await page.getByTestId("login-error").textContent(), "Wrong credentials");
          assert.deepEqual(logins, []);
          assert.equal(fake.calls.length, 0);
          await page.getByRole("checkbox", { name: "I'm not a robot" }).check();
          await submit.click();
          await page.waitForURL(`${server.url}/files/`);
          assert.equal(fake.calls.length, 1);
          assert.match(fake.calls[0].response, /^pass-/);
          assert.deepEqual(violations, []);
          await context.close();
        },
      );

      await t.step("screenshots: light, dark and mobile", async () => {
        const shots = [
          { name: "login-captcha-light", colorScheme: "light" as const },
          { name: "login-captcha-dark", colorScheme: "dark" as const },
          {
            name: "login-captcha-mobile",
            colorScheme: "light" as const,
            viewport: { width: 360, height: 740 },
          },
        ];
        for (const shot of shots) {
          const { context, page } = await newSession(browser, server, shot);
          await page.goto(`${server.url}/login`);
          await hydrated(page, "Login");
          await page.getByTestId("fake-captcha").waitFor();
          const box = await page.getByTestId("fake-captcha").boundingBox();
          const card = await page.getByTestId("login-form").boundingBox();
          assert.ok(box && card && box.x >= card.x && box.x + box.width <= card.x + card.width, shot.name);
          await screenshot(page, shot.name);
          await context.close();
        }
      });
    } finally {
      await browser.close();
      await server.close();
      await fake.close();
    }
  },
});

Deno.test({
  name: "login: a hostile redirect target ends on this site's /files/ after logging in",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startServer({ users: [{ username: "alice", perm: { download: true } }] });
    const browser: Browser = await launchBrowser();
    try {
      for (const raw of ["/%09/evil.example", "/%5Cevil.example", "//evil.example", "/.//evil.example"]) {
        const { context, page } = await newSession(browser, server);
        const offsite: string[] = [];
        page.on("request", (r) => !r.url().startsWith(server.url) && offsite.push(r.url()));
        await page.goto(`${server.url}/login?redirect=${raw}`);
        await hydrated(page, "Login");
        await fillLogin(page);
        await page.getByRole("button", { name: "Login" }).click();
        await page.waitForURL(`${server.url}/files/`);
        assert.deepEqual(offsite, [], raw);
        await context.close();
      }
      // The island checks the target itself too: a page whose props were tampered with still stays on the site.
      const { context, page } = await newSession(browser, server);
      await page.route(`${server.url}/login*`, async (route) => {
        const res = await route.fetch();
        // The island props are a deduplicated value table: the redirect is the first string in it.
        const body = (await res.text()).replace(
          /(data-island-props="Login">\[[^<]*?)"\/files\/"/,
          '$1"/\\t/evil.example"',
        );
        await route.fulfill({ response: res, body });
      });
      await page.goto(`${server.url}/login`);
      await hydrated(page, "Login");
      assert.match(await page.content(), /data-island-props="Login">[^<]*"\/\\t\/evil.example"/);
      await fillLogin(page);
      await page.getByRole("button", { name: "Login" }).click();
      await page.waitForURL(`${server.url}/files/`);
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
