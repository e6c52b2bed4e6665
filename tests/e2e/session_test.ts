/** Browser tests: login through the form, guards, logout, admin-only routes. */
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { TEST_PASSWORD } from "../_helpers.ts";
import {
  hasChromium,
  hydrated,
  launchBrowser,
  listedNames,
  newSession,
  startServer,
  writeFile,
} from "./_server.ts";
import type { E2eServer } from "./_server.ts";

const run = await hasChromium();

Deno.test({
  name: "session: a new user logs in, sees the listing, is guarded and logs out",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server: E2eServer = await startServer({
      users: [{ username: "alice", perm: { create: true, download: true } }],
    });
    const browser: Browser = await launchBrowser();
    try {
      await writeFile(server, "/hello.txt", "hi");
      await Deno.mkdir(`${server.t.root}/Docs`);

      await t.step("an anonymous visit goes to the login page with the redirect", async () => {
        const { context, page } = await newSession(browser, server);
        await page.goto(`${server.url}/files/Docs/`);
        assert.equal(new URL(page.url()).pathname, "/login");
        assert.equal(new URL(page.url()).searchParams.get("redirect"), "/files/Docs/");
        await hydrated(page, "Login");
        assert.equal(await page.title(), "Login - File Browser");
        await context.close();
      });

      const { context, page } = await newSession(browser, server);
      await t.step("wrong credentials show a message; right ones open the redirect target", async () => {
        await page.goto(`${server.url}/login?redirect=%2Ffiles%2F`);
        await hydrated(page, "Login");
        await page.getByPlaceholder("Username").fill("alice");
        await page.getByPlaceholder("Password").fill("wrong-password");
        await page.getByRole("button", { name: "Login" }).click();
        await page.getByTestId("login-error").waitFor();
        assert.equal(await page.getByTestId("login-error").textContent(), "Wrong credentials");
        await page.getByPlaceholder("Password").fill(TEST_PASSWORD);
        await page.getByRole("button", { name: "Login" }).click();
        await page.waitForURL(`${server.url}/files/`);
        await hydrated(page, "FileBrowser");
        await page.getByTestId("listing").waitFor();
        assert.deepEqual(await listedNames(page), ["Docs", "hello.txt"]);
        assert.ok(await page.evaluate(() => localStorage.getItem("jwt")), "token stored");
        const cookies = await context.cookies();
        assert.ok(cookies.some((c) => c.name === "auth" && c.sameSite === "Strict"), "auth cookie set");
      });

      await t.step("the login page sends a logged-in user on", async () => {
        await page.goto(`${server.url}/login`);
        assert.equal(new URL(page.url()).pathname, "/files/");
      });

      await t.step("a stored token is renewed when a page starts, whatever its age", async () => {
        assert.ok(await page.evaluate(() => localStorage.getItem("jwt")), "a token was stored before");
        // The fresh token of a login is far from expiry: the page start renews it all the same.
        const renewed = page.waitForResponse((r) =>
          r.url() === `${server.url}/api/renew` && r.request().method() === "POST" && r.status() === 200
        );
        await page.goto(`${server.url}/files/Docs/`);
        await renewed;
        await hydrated(page, "FileBrowser");
        const token = await page.evaluate(() => localStorage.getItem("jwt"));
        assert.equal(token?.split(".").length, 3);
      });

      await t.step("/files and unknown paths land under /files/", async () => {
        await page.goto(`${server.url}/files`);
        assert.equal(new URL(page.url()).pathname, "/files/");
        await page.goto(`${server.url}/Docs`);
        assert.equal(new URL(page.url()).pathname, "/files/Docs");
      });

      await t.step("/settings goes to /settings/profile; admin-only routes go to /403", async () => {
        const res = await page.goto(`${server.url}/settings`);
        assert.ok(new URL(page.url()).pathname.startsWith("/settings/profile") || res);
        await page.goto(`${server.url}/settings/users`);
        assert.equal(new URL(page.url()).pathname, "/403");
        assert.match(await page.getByTestId("error-view").innerText(), /permissions/);
        await page.goto(`${server.url}/settings/global`);
        assert.equal(new URL(page.url()).pathname, "/403");
      });

      await t.step("logout clears the session and returns to the login page", async () => {
        await page.goto(`${server.url}/files/`);
        await hydrated(page, "Sidebar");
        await page.getByTestId("logout").click();
        await page.waitForURL(/\/login/);
        assert.equal(await page.evaluate(() => localStorage.getItem("jwt")), null);
        assert.ok(!(await context.cookies()).some((c) => c.name === "auth" && c.value));
        await page.goto(`${server.url}/files/`);
        assert.equal(new URL(page.url()).pathname, "/login");
      });
      await context.close();

      await t.step("a 401 on an API call logs out", async () => {
        const { context, page } = await newSession(browser, server, { as: "alice" });
        await page.goto(`${server.url}/files/`);
        await hydrated(page, "FileBrowser");
        await page.getByTestId("listing").waitFor();
        // Revoke the session on the server, then make the page call the API.
        const res = await server.t.request("/api/logout", { method: "POST", as: "alice" });
        await res.body?.cancel();
        await page.getByTestId("listing").locator('[data-name="Docs"]').dblclick();
        await page.waitForURL(/\/login\?redirect=/);
        await context.close();
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});

Deno.test({
  name: "session: signup creates an account and logs in; no-auth mode logs in by itself",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const browser: Browser = await launchBrowser();
    try {
      await t.step("signup: mismatched passwords, a taken name, then success", async () => {
        const server = await startServer({ settings: { signup: true } });
        try {
          const { context, page } = await newSession(browser, server);
          await page.goto(`${server.url}/login`);
          await hydrated(page, "Login");
          await page.getByRole("button", { name: "Create an account" }).click();
          await page.getByPlaceholder("Username").fill("newbie");
          await page.getByPlaceholder("Password", { exact: true }).fill(TEST_PASSWORD);
          await page.getByPlaceholder("Password confirmation").fill("something else");
          assert.equal(await page.getByTestId("password-mismatch").textContent(), "Passwords don't match");
          assert.ok(await page.getByRole("button", { name: "Signup" }).isDisabled());
          await page.getByPlaceholder("Username").fill("admin");
          await page.getByPlaceholder("Password confirmation").fill(TEST_PASSWORD);
          await page.getByRole("button", { name: "Signup" }).click();
          await page.getByTestId("login-error").filter({ hasText: "Username already taken" }).waitFor();
          await page.getByPlaceholder("Username").fill("newbie");
          await page.getByRole("button", { name: "Signup" }).click();
          await page.waitForURL(`${server.url}/files/`);
          await hydrated(page, "FileBrowser");
          assert.equal(JSON.parse(await page.locator("#fb-user").textContent() ?? "null").username, "newbie");
          await context.close();
        } finally {
          await server.close();
        }
      });

      await t.step("no-auth: the login page logs in without a form and there is no logout", async () => {
        const server = await startServer({ config: { authMethod: "noauth" } });
        try {
          const { context, page } = await newSession(browser, server);
          await page.goto(`${server.url}/files/`);
          await page.waitForURL(`${server.url}/files/`);
          await hydrated(page, "Sidebar");
          assert.equal(await page.getByTestId("logout").count(), 0);
          await context.close();
        } finally {
          await server.close();
        }
      });
    } finally {
      await browser.close();
    }
  },
});
