/** Browser tests: the settings screens (profile, password, global settings, guards); users: settings_users_test.ts. */
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
  name: "settings: profile preferences, language switch and password change",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{ username: "alice", perm: { create: true, download: true } }],
    });
    const browser: Browser = await launchBrowser();
    try {
      const { context, page } = await newSession(browser, server, { as: "alice" });

      await t.step("a non-admin sees only Profile in the nav and gets /403 for admin screens", async () => {
        await page.goto(`${server.url}/settings`);
        assert.equal(new URL(page.url()).pathname, "/settings/profile");
        await hydrated(page, "SettingsProfile");
        const sections = await page.getByTestId("settings-nav").locator("a").evaluateAll((as) =>
          as.map((a) => a.getAttribute("data-section"))
        );
        assert.deepEqual(sections, ["profile"]);
        for (
          const path of [
            "/settings/global",
            "/settings/users",
            "/settings/users/new",
            "/settings/users/1",
            "/settings/audit",
          ]
        ) {
          await page.goto(`${server.url}${path}`);
          assert.equal(new URL(page.url()).pathname, "/403", path);
        }
      });

      await t.step("hide dotfiles persists", async () => {
        await page.goto(`${server.url}/settings/profile`);
        await hydrated(page, "SettingsProfile");
        const form = page.getByTestId("profile-form");
        await form.getByLabel("Hide dotfiles").check();
        await form.getByRole("button", { name: "Update" }).click();
        await successToast(page, "Settings updated!");
        assert.equal((await userByName(server, "alice"))?.hideDotfiles, true);
        await page.reload();
        await hydrated(page, "SettingsProfile");
        assert.ok(await page.getByTestId("profile-form").getByLabel("Hide dotfiles").isChecked());
      });

      await t.step("the theme applies at once and persists", async () => {
        const form = page.getByTestId("profile-form");
        await form.locator('select[name="theme"]').selectOption("dark");
        await form.getByRole("button", { name: "Update" }).click();
        await successToast(page, "Settings updated!");
        assert.equal(await page.locator("html").getAttribute("data-theme"), "dark");
        assert.equal((await userByName(server, "alice"))?.theme, "dark");
        await page.reload();
        await hydrated(page, "SettingsProfile");
        assert.equal(await page.locator("html").getAttribute("data-theme"), "dark");
        await page.getByTestId("profile-form").locator('select[name="theme"]').selectOption("");
        await page.getByTestId("profile-form").getByRole("button", { name: "Update" }).click();
        await successToast(page, "Settings updated!");
        assert.equal(await page.locator("html").getAttribute("data-theme"), null);
      });

      await t.step("a different password confirmation shows red and saves nothing", async () => {
        const form = page.getByTestId("password-form");
        await form.getByLabel("Your new password", { exact: true }).fill("Correct-Horse-42-battery");
        await form.getByLabel("Confirm your new password").fill("something-else-entirely");
        const cls = await form.getByLabel("Confirm your new password").getAttribute("class");
        assert.match(cls ?? "", /input-bad/);
        let puts = 0;
        page.on("request", (r) => {
          if (r.method() === "PUT" && r.url().includes("/api/users/")) puts++;
        });
        assert.equal(await form.getByRole("button", { name: "Update" }).isDisabled(), true);
        await form.getByLabel("Confirm your new password").press("Enter");
        await page.waitForTimeout(300);
        assert.equal(puts, 0, "no request was sent");
      });

      await t.step("a wrong current password shows the server's message and changes nothing", async () => {
        const form = page.getByTestId("password-form");
        await form.getByLabel("Confirm your new password").fill("Correct-Horse-42-battery");
        await form.getByLabel("Your current password").fill("not-my-password-1");
        await form.getByRole("button", { name: "Update" }).click();
        const toast = page.getByTestId("toast-error").filter({
          hasText: "the current password is incorrect",
        });
        await toast.waitFor();
        await toast.getByRole("button").first().click();
        const res = await server.t.request("/api/login", {
          method: "POST",
          body: JSON.stringify({ username: "alice", password: TEST_PASSWORD }),
        });
        await res.body?.cancel();
        assert.equal(res.status, 200, "the old password still logs in");
      });

      await t.step("matching passwords turn green and save with a success toast", async () => {
        const form = page.getByTestId("password-form");
        await form.getByLabel("Confirm your new password").fill("Correct-Horse-42-battery");
        assert.match(
          await form.getByLabel("Your new password", { exact: true }).getAttribute("class") ?? "",
          /input-ok/,
        );
        await form.getByLabel("Your current password").fill(TEST_PASSWORD);
        await form.getByRole("button", { name: "Update" }).click();
        await successToast(page, "Password updated!");
        const res = await server.t.request("/api/login", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ username: "alice", password: "Correct-Horse-42-battery" }),
        });
        await res.body?.cancel();
        assert.equal(res.status, 200, "the new password logs in");
        assert.equal(await form.getByLabel("Your new password", { exact: true }).inputValue(), "");
        assert.equal(await form.getByLabel("Your current password").inputValue(), "");
      });

      await t.step("choosing a language reloads the page in that language (and direction)", async () => {
        await screenshot(page, "settings-profile");
        await page.getByTestId("profile-form").locator('select[name="locale"]').selectOption("de");
        await Promise.all([
          page.waitForEvent("load"),
          page.getByTestId("profile-form").getByRole("button", { name: "Update" }).click(),
        ]);
        await hydrated(page, "SettingsProfile");
        assert.equal(await page.locator("html").getAttribute("lang"), "de");
        assert.equal(
          await page.getByTestId("settings-nav").locator("a").first().textContent(),
          "Profileinstellungen",
        );
        await page.getByTestId("profile-form").locator('select[name="locale"]').selectOption("ar");
        await Promise.all([
          page.waitForEvent("load"),
          page.getByTestId("profile-form").locator('button[type="submit"]').click(),
        ]);
        await hydrated(page, "SettingsProfile");
        assert.equal(await page.locator("html").getAttribute("dir"), "rtl");
        await screenshot(page, "settings-profile-ar");
        assert.equal((await userByName(server, "alice"))?.locale, "ar");
      });
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});

Deno.test({
  name: "settings: an admin edits the global settings; a bad regex rule shows the server's message",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer();
    const browser: Browser = await launchBrowser();
    try {
      const { context, page } = await newSession(browser, server, { as: "admin" });
      await page.goto(`${server.url}/settings/global`);
      await hydrated(page, "SettingsGlobal");
      await page.getByTestId("card-global").waitFor();

      await t.step("the admin nav shows every section (the trash too: admins may delete)", async () => {
        const sections = await page.getByTestId("settings-nav").locator("a").evaluateAll((as) =>
          as.map((a) => a.getAttribute("data-section"))
        );
        assert.deepEqual(sections, ["profile", "shares", "trash", "global", "users", "audit"]);
      });

      await t.step("signup and the chunk size text are saved and shown again", async () => {
        const before = await apiJson<{ signup: boolean }>(server, "/api/settings");
        await page.getByTestId("card-global").getByLabel("Allow users to sign up").setChecked(!before.signup);
        await page.getByTestId("card-global").getByRole("button", { name: "Update" }).click();
        await successToast(page, "Settings updated!");
        const chunk = page.locator('input[name="chunkSize"]');
        assert.equal(await chunk.inputValue(), "10MB");
        await chunk.fill("5mb");
        // The text is applied 1.5 s after typing stops and shown in the largest unit.
        await page.waitForFunction(() =>
          (document.querySelector('input[name="chunkSize"]') as HTMLInputElement).value === "5MB"
        );
        await page.getByTestId("card-tus").getByRole("button", { name: "Update" }).click();
        await successToast(page, "Settings updated!");
        const after = await apiJson<{ signup: boolean; tus: { chunkSize: number } }>(server, "/api/settings");
        assert.equal(after.signup, !before.signup);
        assert.equal(after.tus.chunkSize, 5242880);
        await page.reload();
        await hydrated(page, "SettingsGlobal");
        await page.getByTestId("card-global").waitFor();
        assert.equal(await page.locator('input[name="chunkSize"]').inputValue(), "5MB");
        assert.equal(
          await page.getByTestId("card-global").getByLabel("Allow users to sign up").isChecked(),
          !before.signup,
        );
        await screenshot(page, "settings-global");
      });

      await t.step("chunk text typed just before Update is applied at once", async () => {
        await page.locator('input[name="chunkSize"]').fill("1.5 GB");
        await page.getByTestId("card-tus").getByRole("button", { name: "Update" }).click();
        await successToast(page, "Settings updated!");
        const s = await apiJson<{ tus: { chunkSize: number } }>(server, "/api/settings");
        assert.equal(s.tus.chunkSize, 1.5 * 1024 ** 3);
        assert.equal(await page.locator('input[name="chunkSize"]').inputValue(), "1.5GB");
      });

      await t.step("a bad regex rule shows the server's 400 message and saves nothing", async () => {
        const rules = page.getByTestId("card-global").getByTestId("rules");
        await rules.getByRole("button", { name: "Add rule" }).click();
        const row = rules.locator(".rule-row").last();
        await row.getByLabel("Regex").check();
        await row.getByLabel("Regular expression").fill("([unclosed");
        await row.getByLabel("Regular expression").press("Enter");
        // Enter does not submit the form (a submit would have failed with an error toast).
        await page.waitForTimeout(300);
        assert.equal(await page.getByTestId("toast-error").count(), 0);
        await page.getByTestId("card-global").getByRole("button", { name: "Update" }).click();
        const toast = page.getByTestId("toast-error");
        await toast.waitFor();
        assert.match(await toast.innerText(), /unclosed/);
        assert.deepEqual((await apiJson<{ rules: unknown[] }>(server, "/api/settings")).rules, []);
      });
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});

Deno.test({
  name: "settings: with command execution on, shell, hooks and the execute permission are editable",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({ config: { enableExec: true } });
    const browser: Browser = await launchBrowser();
    try {
      const { context, page } = await newSession(browser, server, { as: "admin" });
      await page.goto(`${server.url}/settings/global`);
      await hydrated(page, "SettingsGlobal");
      await page.getByTestId("card-commands").waitFor();

      await t.step("shell words and hook lines are split and saved", async () => {
        await page.locator('input[name="shell"]').fill("bash  -c ");
        const hook = page.getByTestId("card-commands").locator("details", { hasText: "before_save" });
        await hook.locator("summary").click();
        await hook.locator("textarea").fill("echo one\n\necho two\n");
        assert.ok(await page.getByTestId("defaults").getByLabel("Execute commands").isVisible());
        assert.match(
          await page.getByTestId("exec-status").innerText(),
          /Commands run confined by bubblewrap \d/,
        );
        assert.ok(
          await page.getByTestId("shell-warning").isVisible(),
          "a shell set: the line runs unchecked",
        );
        await page.getByTestId("card-commands").getByRole("button", { name: "Update" }).click();
        await successToast(page, "Settings updated!");
        const s = await apiJson<{ shell: string[]; commands: Record<string, string[]> }>(
          server,
          "/api/settings",
        );
        assert.deepEqual(s.shell, ["bash", "-c"]);
        assert.deepEqual(s.commands.before_save, ["echo one", "echo two"]);
        await screenshot(page, "settings-global-exec");
      });

      await t.step("an admin saving their own record keeps a working session", async () => {
        await page.goto(`${server.url}/settings/users/1`);
        await hydrated(page, "SettingsUser");
        await page.getByTestId("user-form").locator('input[name="commands"]').fill("ls  echo");
        const before = await page.evaluate(() => localStorage.getItem("jwt"));
        await page.getByTestId("user-edit").getByLabel("Your current password").fill(TEST_PASSWORD);
        await page.getByTestId("user-edit").getByRole("button", { name: "Save" }).click();
        await successToast(page, "User updated!");
        assert.deepEqual((await userByName(server, "admin"))?.commands, ["ls", "echo"]);
        await page.waitForFunction((old) => localStorage.getItem("jwt") !== old, before);
        await page.goto(`${server.url}/settings/global`);
        assert.equal(new URL(page.url()).pathname, "/settings/global");
      });
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
