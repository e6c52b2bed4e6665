/** Browser tests: a visitor of a public share sees the logged-out sidebar (Login, and Signup when it is on). */
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { hasChromium, hydrated, launchBrowser, newSession, startServer, writeFile } from "./_server.ts";
import type { E2eServer } from "./_server.ts";

const run = await hasChromium();

Deno.test({
  name: "visitor sidebar: a public share shows Login and Signup to visitors, the user's own sidebar to users",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server: E2eServer = await startServer({
      users: [{ username: "alice", perm: { share: true, download: true, create: true } }],
      settings: { signup: true },
    });
    const browser: Browser = await launchBrowser();
    try {
      await writeFile(server, "/docs/readme.txt", "hello");
      const res = await server.t.request("/api/share/docs/", { as: "alice", method: "POST", body: "{}" });
      assert.equal(res.status, 200);
      const { hash } = await res.json() as { hash: string };

      await t.step("a visitor sees Login and Signup, both leading to the login page", async () => {
        const { context, page } = await newSession(browser, server);
        await page.goto(`${server.url}/share/${hash}/`);
        await hydrated(page, "Sidebar");
        // The share page keeps the sidebar behind the menu button.
        await page.getByRole("button", { name: "Toggle sidebar" }).click();
        const nav = page.locator("nav.sidebar, [data-island-root='Sidebar']").first();
        const login = nav.getByRole("link", { name: "Login" });
        const signup = nav.getByRole("link", { name: "Signup" });
        assert.equal(new URL(await login.getAttribute("href") ?? "", server.url).pathname, "/login");
        assert.equal(new URL(await signup.getAttribute("href") ?? "", server.url).pathname, "/login");
        assert.equal(await nav.getByTestId("logout").count(), 0);
        await signup.click();
        await page.waitForURL(/\/login/);
        await hydrated(page, "Login");
        await page.getByPlaceholder("Password confirmation").waitFor();
        await context.close();
      });

      await t.step("a logged-in user sees the own sidebar on the same page", async () => {
        const { context, page } = await newSession(browser, server, { as: "alice" });
        await page.goto(`${server.url}/share/${hash}/`);
        await hydrated(page, "Sidebar");
        await page.getByRole("button", { name: "Toggle sidebar" }).click();
        await page.getByTestId("logout").waitFor();
        assert.equal(await page.getByRole("link", { name: "Signup" }).count(), 0);
        await context.close();
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
