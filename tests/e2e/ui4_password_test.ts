/**
 * Browser tests: the password fields of signup, Settings › Profile and the user editor state the minimum length,
 * say in words when the entries differ or the password is too short, keep the submit disabled then, and never
 * turn green for a password the server refuses.
 */
import assert from "node:assert/strict";
import type { Browser, Locator, Page } from "playwright-core";
import { TEST_PASSWORD } from "../_helpers.ts";
import { hasChromium, hydrated, launchBrowser, newSession, screenshot, startServer } from "./_server.ts";
import type { E2eServer, SessionOptions } from "./_server.ts";

const run = await hasChromium();

/** The four looks every changed screen is photographed in. */
const LOOKS: [string, SessionOptions][] = [
  ["light", { viewport: { width: 1280, height: 900 } }],
  ["dark", { viewport: { width: 1280, height: 900 }, colorScheme: "dark" }],
  ["phone", { viewport: { width: 390, height: 844 } }],
  ["tablet", { viewport: { width: 820, height: 1000 } }],
];

/** The note under a password field (found through the field's aria-describedby). */
async function noteOf(page: Page, field: Locator): Promise<string> {
  const id = await field.getAttribute("aria-describedby");
  assert.ok(id, "the field points to its note");
  return (await page.locator(`[id="${id.split(" ")[0]}"]`).textContent()) ?? "";
}

async function classOf(field: Locator): Promise<string> {
  return (await field.getAttribute("class")) ?? "";
}

/** Opens a page in each look, lets `fill` put it in the state to show, and saves a screenshot. */
async function shoot(
  browser: Browser,
  server: E2eServer,
  name: string,
  as: string | undefined,
  open: (page: Page) => Promise<void>,
): Promise<void> {
  for (const [look, options] of LOOKS) {
    const { context, page } = await newSession(browser, server, { ...options, as });
    await open(page);
    await screenshot(page, `ui4-password-${name}-${look}`);
    await context.close();
  }
}

Deno.test({
  name:
    "password fields: minimum length up front, differences in words, submit disabled, no green when too short",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    // Self-signup checks the --min-password-length flag (14 here); the settings' minimum (16) rules the others.
    const server = await startServer({
      config: { minPasswordLength: 14 },
      settings: { signup: true, minimumPasswordLength: 16 },
      users: [{ username: "alice" }],
    });
    const browser: Browser = await launchBrowser();
    try {
      const signupPage = async (page: Page) => {
        await page.goto(`${server.url}/login?signup=1`);
        await hydrated(page, "Login");
      };

      await t.step("signup", async () => {
        const { context, page } = await newSession(browser, server);
        await signupPage(page);
        const password = page.getByLabel("Password", { exact: true });
        const confirm = page.getByLabel("Password confirmation");
        const submit = page.getByRole("button", { name: "Signup" });
        assert.equal(await noteOf(page, password), "Minimum length: 14 characters.");
        await page.getByLabel("Username").fill("newbie");

        // Too short: said in words once the field is left, invalid, never green, submit disabled.
        await password.fill("short-pass1");
        await password.blur();
        assert.equal(await noteOf(page, password), "Too short: use at least 14 characters.");
        assert.equal(await password.getAttribute("aria-invalid"), "true");
        await confirm.fill("short-pass1");
        assert.doesNotMatch(await classOf(password), /input-ok/);
        assert.doesNotMatch(await classOf(confirm), /input-ok/);
        assert.ok(await submit.isDisabled());

        // Long enough but different: the confirmation says so.
        await password.fill(TEST_PASSWORD);
        await confirm.fill("correct-horse-staple");
        assert.equal(await confirm.getAttribute("aria-invalid"), "true");
        assert.equal(await page.getByTestId("password-mismatch").textContent(), "Passwords don't match");
        const described = await confirm.getAttribute("aria-describedby");
        assert.equal(await page.locator(`[id="${described}"]`).textContent(), "Passwords don't match");
        assert.ok(await submit.isDisabled());

        // Equal and long enough: no complaint, the button works and the account is made.
        await confirm.fill(TEST_PASSWORD);
        assert.equal(await confirm.getAttribute("aria-invalid"), null);
        assert.equal(await password.getAttribute("aria-invalid"), null);
        assert.equal(await page.getByTestId("password-mismatch").textContent(), "");
        assert.equal(await noteOf(page, password), "Minimum length: 14 characters.");
        await submit.click();
        await page.waitForURL(`${server.url}/files/`);
        await context.close();
      });

      await t.step("signup screenshots", async () => {
        await shoot(browser, server, "signup", undefined, async (page) => {
          await signupPage(page);
          await page.getByLabel("Username").fill("someone");
          await page.getByLabel("Password", { exact: true }).fill("too-short");
          await page.getByLabel("Password confirmation").fill("too-shorter");
          await page.getByLabel("Password confirmation").blur();
        });
      });

      const profilePage = async (page: Page) => {
        await page.goto(`${server.url}/settings/profile`);
        await hydrated(page, "SettingsProfile");
      };

      await t.step("profile password change", async () => {
        const { context, page } = await newSession(browser, server, { as: "alice" });
        await profilePage(page);
        const form = page.getByTestId("password-form");
        const password = form.getByLabel("Your new password", { exact: true });
        const confirm = form.getByLabel("Confirm your new password");
        const update = form.getByRole("button", { name: "Update" });
        assert.equal(await noteOf(page, password), "Minimum length: 16 characters.");
        assert.ok(await update.isDisabled(), "nothing typed yet");

        // 15 characters: the server's minimum here is 16, so equal entries stay neutral and Update stays off.
        await password.fill("fifteen-chars-x");
        await confirm.fill("fifteen-chars-x");
        assert.equal(await noteOf(page, password), "Too short: use at least 16 characters.");
        assert.equal(await password.getAttribute("aria-invalid"), "true");
        assert.doesNotMatch(await classOf(password), /input-ok/);
        assert.doesNotMatch(await classOf(confirm), /input-ok/);
        assert.ok(await update.isDisabled());

        // A typo in the confirmation is said at once.
        await password.fill("sixteen-chars-xy");
        await confirm.fill("sixteen-chars-xz");
        assert.equal(await form.getByTestId("password-mismatch").textContent(), "Passwords don't match");
        assert.equal(await confirm.getAttribute("aria-invalid"), "true");
        assert.ok(await update.isDisabled());

        // Equal and long enough: green, enabled, saved.
        await confirm.fill("sixteen-chars-xy");
        assert.match(await classOf(password), /input-ok/);
        assert.ok(await update.isEnabled());
        await form.getByLabel("Your current password").fill(TEST_PASSWORD);
        await update.click();
        await page.getByTestId("toast-success").filter({ hasText: "Password updated!" }).waitFor();
        await context.close();
      });

      await t.step("profile screenshots", async () => {
        await shoot(browser, server, "profile", "alice", async (page) => {
          await profilePage(page);
          const form = page.getByTestId("password-form");
          await form.getByLabel("Your new password", { exact: true }).fill("short");
          await form.getByLabel("Confirm your new password").fill("shirt");
          await form.scrollIntoViewIfNeeded();
        });
      });

      const userPage = async (page: Page) => {
        await page.goto(`${server.url}/settings/users/new`);
        await hydrated(page, "SettingsUser");
        await page.getByTestId("user-form").waitFor();
      };

      await t.step("user editor", async () => {
        const { context, page } = await newSession(browser, server, { as: "admin" });
        await userPage(page);
        const form = page.getByTestId("user-form");
        const password = form.getByLabel("Password", { exact: true });
        const save = page.getByTestId("user-edit").getByRole("button", { name: "Save" });
        assert.equal(await noteOf(page, password), "Minimum length: 16 characters.");
        await form.locator('input[name="username"]').fill("carol");
        await password.fill("too-short");
        await password.blur();
        assert.equal(await noteOf(page, password), "Too short: use at least 16 characters.");
        assert.equal(await password.getAttribute("aria-invalid"), "true");
        assert.doesNotMatch(await classOf(password), /input-ok/);
        assert.ok(await save.isDisabled());
        await password.fill("a-long-enough-password");
        assert.equal(await password.getAttribute("aria-invalid"), null);
        assert.ok(await save.isEnabled());
        await page.getByTestId("user-edit").getByLabel("Your current password").fill(TEST_PASSWORD);
        await save.click();
        await page.waitForURL(/\/settings\/users\/\d+$/);
        await hydrated(page, "SettingsUser");
        // An existing user: an empty password keeps the current one and does not block saving.
        await page.getByTestId("user-form").waitFor();
        assert.equal(
          await page.getByTestId("user-form").getByLabel("Password", { exact: true }).inputValue(),
          "",
        );
        assert.ok(await save.isEnabled());
        await context.close();
      });

      await t.step("user editor screenshots", async () => {
        await shoot(browser, server, "user", "admin", async (page) => {
          await userPage(page);
          const password = page.getByTestId("user-form").getByLabel("Password", { exact: true });
          await password.fill("too-short");
          await password.blur();
        });
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
