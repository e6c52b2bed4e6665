/**
 * Browser tests of settings details: the settings arriving with the page, columns side by side on a wide screen, branding and defaults
 * saved from their cards, no shell or execute fields while command execution is off, and no password card for a
 * user whose password is locked.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { hasChromium, hydrated, launchBrowser, newSession, startServer } from "./_server.ts";
import type { E2eServer } from "./_server.ts";

const run = await hasChromium();

async function settings(server: E2eServer): Promise<Record<string, unknown>> {
  const res = await server.t.request("/api/settings", { as: "admin" });
  assert.equal(res.status, 200);
  return await res.json();
}

/** Clicks the card's Update and waits until the server has answered the save and the toast shows. */
async function update(page: Page, card: string): Promise<void> {
  const answered = page.waitForResponse((r) =>
    r.url().endsWith("/api/settings") && r.request().method() === "PUT"
  );
  await page.getByTestId(card).getByRole("button", { name: "Update" }).click();
  assert.equal((await answered).status(), 200);
  await page.getByTestId("toast-success").filter({ hasText: "Settings updated!" }).last().waitFor();
}

Deno.test({
  name: "settings details: data with the page, columns, branding, defaults, execution off, locked password",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{ username: "carol", perm: { download: true }, lockPassword: true }],
    });
    const browser = await launchBrowser();
    try {
      const { page } = await newSession(browser, server, { as: "admin" });

      await t.step("the settings come with the page: no loading text, no request for them", async () => {
        const asked: string[] = [];
        page.on("request", (r) => {
          if (r.url().endsWith("/api/settings")) asked.push(r.method());
        });
        await page.goto(`${server.url}/settings/global`);
        await hydrated(page, "SettingsGlobal");
        await page.getByTestId("card-global").waitFor();
        assert.equal(await page.getByTestId("settings-loading").count(), 0);
        assert.deepEqual(asked, []);
      });

      await t.step(
        "a wide screen shows the columns side by side (commands, the third, need execution)",
        async () => {
          const columns = page.locator(".settings-columns.three > .settings-column");
          assert.equal(await columns.count(), 2);
          const xs = await columns.evaluateAll((els) =>
            els.map((e) => Math.round(e.getBoundingClientRect().x))
          );
          assert.ok(xs[0] < xs[1], `columns at ${xs}`);
        },
      );

      await t.step(
        "without command execution there is no shell field and no execute permission",
        async () => {
          assert.equal(await page.getByTestId("card-commands").count(), 0);
          assert.equal(await page.locator('input[name="shell"]').count(), 0);
          assert.equal(await page.getByTestId("defaults").getByLabel("Execute commands").count(), 0);
          assert.equal(await page.locator('input[name="defaults.commands"]').count(), 0);
        },
      );

      await t.step("the branding card saves the instance name and the files folder", async () => {
        const card = page.getByTestId("card-branding");
        await card.locator('input[name="branding.name"]').fill("Team Drive");
        await card.locator('input[name="branding.files"]').fill("/branding");
        await card.locator('select[name="branding.theme"]').selectOption("dark");
        await update(page, "card-branding");
        const branding = (await settings(server)).branding as Record<string, unknown>;
        assert.equal(branding.name, "Team Drive");
        assert.equal(branding.files, "/branding");
        assert.equal(branding.theme, "dark");
      });

      await t.step("the defaults card saves what new users start with", async () => {
        const card = page.getByTestId("card-defaults");
        await card.locator('select[name="defaults.viewMode"]').selectOption("mosaic gallery");
        await card.getByLabel("Hide dotfiles").setChecked(true);
        await update(page, "card-defaults");
        const defaults = (await settings(server)).defaults as Record<string, unknown>;
        assert.equal(defaults.viewMode, "mosaic gallery");
        assert.equal(defaults.hideDotfiles, true);
      });

      await t.step("the retry count is a whole number, at least 0", async () => {
        const card = page.getByTestId("card-tus");
        const retry = card.locator('input[name="retryCount"]');
        assert.equal(await retry.getAttribute("type"), "number");
        assert.equal(await retry.getAttribute("min"), "0");
        await retry.fill("-3");
        await update(page, "card-tus");
        assert.equal(((await settings(server)).tus as Record<string, unknown>).retryCount, 0);
        await retry.fill("2.7");
        await update(page, "card-tus");
        assert.equal(((await settings(server)).tus as Record<string, unknown>).retryCount, 2);
      });

      await t.step("any card's Update saves the whole settings, other cards' edits included", async () => {
        await page.getByTestId("card-defaults").locator('select[name="defaults.viewMode"]').selectOption(
          "mosaic",
        );
        await page.getByTestId("card-branding").locator('input[name="branding.name"]').fill("Other Drive");
        await update(page, "card-global");
        const all = await settings(server);
        assert.equal((all.defaults as Record<string, unknown>).viewMode, "mosaic");
        assert.equal((all.branding as Record<string, unknown>).name, "Other Drive");
      });

      await t.step("a user with a locked password gets no password card", async () => {
        const carol = await newSession(browser, server, { as: "carol" });
        await carol.page.goto(`${server.url}/settings/profile`);
        await hydrated(carol.page, "SettingsProfile");
        await carol.page.getByTestId("profile-form").waitFor();
        assert.equal(await carol.page.getByTestId("password-form").count(), 0);
        const admin = await newSession(browser, server, { as: "admin" });
        await admin.page.goto(`${server.url}/settings/profile`);
        await hydrated(admin.page, "SettingsProfile");
        await admin.page.getByTestId("profile-form").waitFor();
        await admin.page.getByTestId("password-form").waitFor();
        await carol.context.close();
        await admin.context.close();
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
