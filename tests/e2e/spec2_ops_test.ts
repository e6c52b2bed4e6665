/**
 * Browser tests of two recoveries: a multi-item delete where one request fails still removes the others, shows the
 * error and reloads the listing; a response asking for a new token makes the page renew and store it; a malformed stored token is replaced by
 * the session cookie's.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  hasChromium,
  launchBrowser,
  newSession,
  openFiles,
  setPrefs,
  startServer,
  writeFile,
} from "./_server.ts";

const run = await hasChromium();

function row(page: Page, name: string) {
  return page.locator(`[data-testid="listing"] [data-name="${name}"]`);
}

Deno.test({
  name: "recoveries: a partly failed delete, a token renewal asked by the server, a malformed stored token",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{ username: "alice", perm: { create: true, rename: true, delete: true, download: true } }],
    });
    const browser = await launchBrowser();
    try {
      for (const name of ["one.txt", "two.txt", "stays.txt"]) await writeFile(server, `/${name}`, name);
      await writeFile(server, "/docs/inner.txt", "inner");
      await setPrefs(server, "alice", { viewMode: "list" });
      const { page } = await newSession(browser, server, { as: "alice" });
      await openFiles(page, server, "/");

      await t.step(
        "a delete of several where one fails removes the rest, shows the error, reloads",
        async () => {
          await page.route(
            "**/api/resources/two.txt",
            (route) =>
              route.request().method() === "DELETE"
                ? route.fulfill({ status: 500, body: "500 Internal Server Error" })
                : route.fallback(),
          );
          await row(page, "one.txt").click();
          await row(page, "two.txt").click({ modifiers: ["Control"] });
          await page.keyboard.press("Delete");
          const prompt = page.getByTestId("delete");
          await prompt.waitFor();
          await prompt.getByRole("button", { name: "Delete" }).last().click();
          await page.getByTestId("toast-error").waitFor();
          await row(page, "one.txt").waitFor({ state: "detached" });
          await row(page, "two.txt").waitFor();
          await row(page, "stays.txt").waitFor();
          assert.ok(
            await Deno.stat(`${server.t.root}/two.txt`).then(() => true),
          );
          await assert.rejects(Deno.stat(`${server.t.root}/one.txt`));
          await page.unroute("**/api/resources/two.txt");
          await page.getByTestId("toast-close").click();
        },
      );

      await t.step("a response with X-Renew-Token makes the page fetch and keep a new token", async () => {
        await page.route("**/api/resources/docs/", async (route) => {
          const response = await route.fetch();
          await route.fulfill({ response, headers: { ...response.headers(), "x-renew-token": "true" } });
        });
        const renewed = page.waitForResponse((r) => r.url().endsWith("/api/renew"));
        await row(page, "docs").dblclick();
        const res = await renewed;
        assert.equal(res.status(), 200);
        const token = (await res.text()).trim();
        assert.equal(token.split(".").length, 3);
        await page.waitForFunction((t) => localStorage.getItem("jwt") === t, token);
        await row(page, "inner.txt").waitFor();
        await page.unroute("**/api/resources/docs/");
      });
      await t.step(
        "a malformed stored token does not break the page: the session's token replaces it",
        async () => {
          const token = server.t.tokens.alice;
          const context = await browser.newContext();
          await context.addCookies([{
            name: "auth",
            value: token,
            url: `${server.url}/`,
            sameSite: "Strict",
          }]);
          await context.addInitScript(() => {
            if (!sessionStorage.getItem("spoiled")) {
              sessionStorage.setItem("spoiled", "1");
              localStorage.setItem("jwt", "not-a-token");
            }
          });
          const errors: Error[] = [];
          const bad = await context.newPage();
          bad.on("pageerror", (err) => errors.push(err));
          await openFiles(bad, server, "/");
          await row(bad, "stays.txt").waitFor();
          // Replaced by the cookie's token, then renewed at start: a well-formed token either way.
          await bad.waitForFunction(() => (localStorage.getItem("jwt") ?? "").split(".").length === 3);
          await row(bad, "docs").dblclick();
          await row(bad, "inner.txt").waitFor();
          assert.deepEqual(errors.map((e) => e.message), []);
          await context.close();
        },
      );
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
