/** Browser tests of two-factor login and app passwords: enrol from the profile, log in with a code and a recovery code. */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { Secret, TOTP } from "otpauth";
import { TEST_PASSWORD } from "../_helpers.ts";
import { ARTIFACTS, hasChromium, hydrated, launchBrowser, newSession, startServer } from "./_server.ts";

const run = await hasChromium();

function codeAt(secret: string, ms: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" })
    .generate({ timestamp: ms });
}

async function loginForm(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/login?redirect=%2Ffiles%2F`);
  await hydrated(page, "Login");
  await page.getByPlaceholder("Username").fill("alice");
  await page.getByPlaceholder("Password").fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Login" }).click();
  await page.getByTestId("login-otp").waitFor();
}

Deno.test({
  name: "two-factor login: enrol in the profile, then log in with a code and with a recovery code",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{ username: "alice", perm: { download: true } }, { username: "bob", perm: { download: true } }],
      config: { loginRateLimit: 50 },
    });
    const browser: Browser = await launchBrowser();
    let secret = "";
    let codes: string[] = [];
    try {
      await t.step(
        "enrol: current password, QR code and secret, confirmation code, recovery codes",
        async () => {
          const { context, page } = await newSession(browser, server, { as: "alice" });
          await page.goto(`${server.url}/settings/profile`);
          await hydrated(page, "SettingsProfile");
          const card = page.getByTestId("twofa-card");
          await card.getByRole("button", { name: "Set up" }).waitFor();
          await card.getByLabel("Your current password").fill(TEST_PASSWORD);
          await card.getByRole("button", { name: "Set up" }).click();
          secret = (await page.getByTestId("twofa-secret").textContent()) ?? "";
          assert.match(secret, /^[A-Z2-7]{32}$/);
          assert.equal(await card.getByTestId("share-qr").count(), 1);
          await card.getByLabel("Code from the app").fill(codeAt(secret, Date.now()));
          assert.equal(await card.getByLabel("Sign out my other sessions").isChecked(), true);
          await card.getByRole("button", { name: "Confirm" }).click();
          await page.getByTestId("recovery-codes").waitFor();
          codes = await page.getByTestId("recovery-codes").locator("li").allTextContents();
          assert.equal(codes.length, 10);
          await card.getByRole("button", { name: "Done" }).click();
          await page.getByText("Two-factor authentication is on. Recovery codes left: 10").waitFor();
          await context.close();
        },
      );

      await t.step("log in with a code after the 401 asks for it; a wrong code is refused", async () => {
        const { context, page } = await newSession(browser, server);
        await loginForm(page, server.url);
        assert.equal(await page.getByText("Authentication code").count(), 1);
        await page.getByTestId("login-otp").fill("000000");
        await page.getByRole("button", { name: "Login" }).click();
        await page.getByTestId("login-error").waitFor();
        assert.equal(await page.getByTestId("login-error").textContent(), "Wrong code");
        // The confirmation spent the current step: the next one is within the accepted skew.
        await page.getByTestId("login-otp").fill(codeAt(secret, Date.now() + 30_000));
        await page.getByRole("button", { name: "Login" }).click();
        await page.waitForURL(`${server.url}/files/`);
        await context.close();
      });

      await t.step("log in with a recovery code, once", async () => {
        for (const expectOk of [true, false]) {
          const { context, page } = await newSession(browser, server);
          await loginForm(page, server.url);
          await page.getByRole("button", { name: "Use a recovery code" }).click();
          await page.getByText("Recovery code", { exact: true }).waitFor();
          await page.getByTestId("login-otp").fill(codes[0]);
          await page.getByRole("button", { name: "Login" }).click();
          if (expectOk) await page.waitForURL(`${server.url}/files/`);
          else await page.getByTestId("login-error").waitFor();
          await context.close();
        }
      });

      await t.step("app passwords: create (shown once), listed, revoked", async () => {
        const { context, page } = await newSession(browser, server, { as: "bob" });
        await page.goto(`${server.url}/settings/profile`);
        await hydrated(page, "SettingsProfile");
        const card = page.getByTestId("app-passwords-card");
        await card.getByLabel("Name").fill("Laptop WebDAV");
        await card.getByLabel("Your current password").fill(TEST_PASSWORD);
        await card.getByRole("button", { name: "Create" }).click();
        const shown = (await page.getByTestId("app-password-new").textContent()) ?? "";
        assert.match(shown, /^fbap_/);
        await card.locator('tr[data-name="Laptop WebDAV"]').waitFor();
        await card.getByRole("button", { name: "Revoke", exact: true }).click();
        await card.locator('tr[data-name="Laptop WebDAV"]').waitFor({ state: "detached" });
        await context.close();
      });

      await t.step("screenshots of the profile (app passwords, enrolment): light, dark, phone", async () => {
        const made = await server.t.request("/api/apppasswords", {
          method: "POST",
          as: "bob",
          body: JSON.stringify({ name: "Phone sync", current_password: TEST_PASSWORD }),
        });
        assert.equal(made.status, 201);
        await made.body?.cancel();
        await Deno.mkdir(ARTIFACTS, { recursive: true });
        const shots = [
          { name: "profile-twofa-light", colorScheme: "light" as const },
          { name: "profile-twofa-dark", colorScheme: "dark" as const },
          {
            name: "profile-twofa-phone",
            colorScheme: "light" as const,
            viewport: { width: 360, height: 740 },
          },
        ];
        for (const shot of shots) {
          const { context, page } = await newSession(browser, server, { as: "bob", ...shot });
          await page.goto(`${server.url}/settings/profile`);
          await hydrated(page, "SettingsProfile");
          const card = page.getByTestId("twofa-card");
          await card.getByLabel("Your current password").fill(TEST_PASSWORD);
          await card.getByRole("button", { name: "Set up" }).click();
          await page.getByTestId("twofa-secret").waitFor();
          await page.getByTestId("app-passwords-card").locator('tr[data-name="Phone sync"]').waitFor();
          if (shot.viewport) {
            // A phone's fixed header would sit in the middle of a full-page picture: show the cards in view.
            await page.getByTestId("app-passwords-card").scrollIntoViewIfNeeded();
            await page.screenshot({ path: `${ARTIFACTS}${shot.name}.png` });
            const box = await page.locator('tr[data-name="Phone sync"] button').boundingBox();
            const card = await page.getByTestId("app-passwords-card").boundingBox();
            assert.ok(
              box && card && box.x + box.width <= card.x + card.width,
              "Revoke stays inside the card",
            );
          } else {
            await page.screenshot({ path: `${ARTIFACTS}${shot.name}.png`, fullPage: true });
          }
          await context.close();
        }
      });

      await t.step(
        "the user editor: an admin revokes a user's app password; no reset of their own",
        async () => {
          const { context, page } = await newSession(browser, server, { as: "admin" });
          await page.goto(`${server.url}/settings/users/${server.t.users.bob.id}`);
          await hydrated(page, "SettingsUser");
          const card = page.getByTestId("app-passwords-card");
          await card.locator('tr[data-name="Phone sync"]').waitFor();
          assert.equal(
            await card.getByLabel("Name").count(),
            0,
            "admins do not create app passwords for others",
          );
          await card.getByRole("button", { name: "Revoke", exact: true }).click();
          await card.locator('tr[data-name="Phone sync"]').waitFor({ state: "detached" });
          const left = await server.t.request("/api/apppasswords", { as: "bob" });
          assert.deepEqual(await left.json(), []);
          assert.equal(await page.getByTestId("reset-twofa-button").count(), 1);
          await page.goto(`${server.url}/settings/users/1`);
          await hydrated(page, "SettingsUser");
          assert.equal(await page.getByTestId("reset-twofa-button").count(), 0);
          await context.close();
        },
      );
    } finally {
      await browser.close();
      await server.close();
    }
  },
});

Deno.test({
  name: "two-factor login: a user who must enrol lands on the profile's enrolment after logging in",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startServer({
      users: [{ username: "alice", perm: { download: true } }],
      settings: { twoFactorRequired: "all" },
    });
    const browser: Browser = await launchBrowser();
    try {
      const { context, page } = await newSession(browser, server);
      await page.goto(`${server.url}/login?redirect=%2Ffiles%2F`);
      await hydrated(page, "Login");
      await page.getByPlaceholder("Username").fill("alice");
      await page.getByPlaceholder("Password").fill(TEST_PASSWORD);
      await page.getByRole("button", { name: "Login" }).click();
      await page.waitForURL(`${server.url}/settings/profile`);
      await hydrated(page, "SettingsProfile");
      await page.getByRole("alert").filter({ hasText: "requires two-factor authentication" }).waitFor();
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
