/** Browser tests: user management screens (list, create with the form rules, edit, delete). */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { TEST_PASSWORD } from "../_helpers.ts";
import { hasChromium, hydrated, launchBrowser, newSession, screenshot, startServer } from "./_server.ts";
import type { E2eServer } from "./_server.ts";

const run = await hasChromium();

async function apiJson<T>(server: E2eServer, path: string, as = "admin"): Promise<T> {
  const res = await server.t.request(path, { as });
  assert.equal(res.status, 200, path);
  return await res.json() as T;
}

async function userByName(server: E2eServer, name: string): Promise<Record<string, unknown> | undefined> {
  const users = await apiJson<Record<string, unknown>[]>(server, "/api/users");
  return users.find((u) => u.username === name);
}

function successToast(page: Page, text: string) {
  return page.getByTestId("toast-success").filter({ hasText: text }).waitFor();
}

Deno.test({
  name: "settings: an admin creates a user (admin checkbox rules), edits and deletes it",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({ settings: { createUserDir: true } });
    const browser: Browser = await launchBrowser();
    try {
      const { context, page } = await newSession(browser, server, { as: "admin" });

      await t.step("the list shows users and links to a new user form", async () => {
        await page.goto(`${server.url}/settings/users`);
        await hydrated(page, "SettingsUsers");
        await page.locator('tr[data-username="admin"]').waitFor();
        assert.equal(
          await page.locator('tr[data-username="admin"] td[data-admin]').getAttribute("data-admin"),
          "true",
        );
        await page.getByTestId("new-user").click();
        await page.waitForURL(`${server.url}/settings/users/new`);
        await hydrated(page, "SettingsUser");
        await page.getByTestId("user-form").waitFor();
        assert.equal(await page.getByTestId("user-edit").locator("h2").textContent(), "New user");
        await screenshot(page, "settings-user-new");
      });

      await t.step("create home dir clears and locks the scope; unticking restores it", async () => {
        const form = page.getByTestId("user-form");
        const scope = form.locator('input[name="scope"]');
        assert.ok(await form.getByLabel("Create user home directory").isChecked());
        assert.ok(await scope.isDisabled());
        assert.equal(await scope.inputValue(), "");
        await form.getByLabel("Create user home directory").uncheck();
        assert.equal(await scope.inputValue(), ".");
        assert.ok(await scope.isEnabled());
        await form.getByLabel("Create user home directory").check();
        assert.equal(await scope.inputValue(), "");
      });

      await t.step("admin ticks and locks every permission and clears lockPassword", async () => {
        const form = page.getByTestId("user-form");
        await form.getByLabel("Prevent the user from changing the password").check();
        await form.getByLabel("Administrator").check();
        for (
          const label of [
            "Create files and directories",
            "Delete files and directories",
            "Share files",
            "Download",
          ]
        ) {
          assert.ok(await form.getByLabel(label).isChecked(), label);
          assert.ok(await form.getByLabel(label).isDisabled(), label);
        }
        assert.ok(!(await form.getByLabel("Prevent the user from changing the password").isChecked()));
        assert.ok(await form.getByLabel("Prevent the user from changing the password").isDisabled());
        await form.getByLabel("Administrator").uncheck();
        assert.ok(await form.getByLabel("Share files").isEnabled());
        assert.ok(await form.getByLabel("Share files").isChecked(), "the others stay ticked");
      });

      let id = 0;
      await t.step("saving creates the user and opens its page with a success toast", async () => {
        const form = page.getByTestId("user-form");
        await form.locator('input[name="username"]').fill("bob");
        await form.locator('input[name="password"]').fill(TEST_PASSWORD);
        await page.getByTestId("user-edit").getByLabel("Your current password").fill(TEST_PASSWORD);
        // The success survives the page load that opens the new user's page.
        const created = successToast(page, "User created!");
        await page.getByTestId("user-edit").getByRole("button", { name: "Save" }).click();
        await page.waitForURL(/\/settings\/users\/\d+$/);
        await created;
        id = Number(new URL(page.url()).pathname.split("/").pop());
        await hydrated(page, "SettingsUser");
        await page.getByTestId("user-form").waitFor();
        assert.equal(await page.getByTestId("user-edit").locator("h2").textContent(), "User bob");
        const bob = await userByName(server, "bob");
        assert.equal(bob?.id, id);
        assert.equal(bob?.scope, "/users/bob");
        assert.equal((bob?.perm as Record<string, boolean>).admin, false);
      });

      await t.step("saving with a wrong current password shows the message and saves nothing", async () => {
        const form = page.getByTestId("user-form");
        await form.getByLabel("Administrator").check();
        await page.getByTestId("user-edit").getByLabel("Your current password").fill("not-my-password-1");
        await page.getByTestId("user-edit").getByRole("button", { name: "Save" }).click();
        const toast = page.getByTestId("toast-error").filter({
          hasText: "the current password is incorrect",
        });
        await toast.waitFor();
        await toast.getByRole("button").first().click();
        assert.equal(((await userByName(server, "bob"))?.perm as Record<string, boolean>).admin, false);
        await form.getByLabel("Administrator").uncheck();
      });

      await t.step("editing keeps a blank password and saves the changes", async () => {
        const form = page.getByTestId("user-form");
        await form.locator('input[name="scope"]').fill("/users/robert");
        await form.getByLabel("Share files").uncheck();
        await page.getByTestId("user-edit").getByLabel("Your current password").fill(TEST_PASSWORD);
        await page.getByTestId("user-edit").getByRole("button", { name: "Save" }).click();
        await successToast(page, "User updated!");
        const bob = await userByName(server, "bob");
        assert.equal(bob?.scope, "/users/robert");
        assert.equal((bob?.perm as Record<string, boolean>).share, false);
        const res = await server.t.request("/api/login", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ username: "bob", password: TEST_PASSWORD }),
        });
        await res.body?.cancel();
        assert.equal(res.status, 200, "the password is unchanged");
      });

      await t.step("delete asks for confirmation, then removes the user with a success toast", async () => {
        await page.getByTestId("delete-user-button").click();
        const prompt = page.getByTestId("delete-user");
        await prompt.waitFor();
        assert.match(await prompt.innerText(), /Are you sure you want to delete this user\?/);
        await prompt.getByRole("button", { name: "Cancel" }).click();
        assert.ok(await userByName(server, "bob"));
        await page.getByTestId("delete-user-button").click();
        await page.getByTestId("delete-user").getByLabel("Your current password").fill(TEST_PASSWORD);
        const deleted = successToast(page, "User deleted!");
        await page.getByTestId("delete-user").getByRole("button", { name: "Delete" }).click();
        await page.waitForURL(`${server.url}/settings/users`);
        await deleted;
        await hydrated(page, "SettingsUsers");
        await page.locator('tr[data-username="admin"]').waitFor();
        assert.equal(await page.locator('tr[data-username="bob"]').count(), 0);
        assert.equal(await userByName(server, "bob"), undefined);
      });

      await t.step("deleting the last admin shows the forbidden message", async () => {
        await page.goto(`${server.url}/settings/users/1`);
        await hydrated(page, "SettingsUser");
        await page.getByTestId("delete-user-button").click();
        await page.getByTestId("delete-user").getByLabel("Your current password").fill(TEST_PASSWORD);
        await page.getByTestId("delete-user").getByRole("button", { name: "Delete" }).click();
        const toast = page.getByTestId("toast-error");
        await toast.waitFor();
        assert.match(await toast.innerText(), /You don't have permissions to access this\./);
      });

      await t.step("an unknown user shows the not-found screen", async () => {
        await page.goto(`${server.url}/settings/users/999`);
        await hydrated(page, "SettingsUser");
        await page.getByTestId("error-view").waitFor();
        assert.equal(await page.getByTestId("error-view").getAttribute("data-status"), "404");
      });
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
