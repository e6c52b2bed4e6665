/** Browser tests: Settings › Audit lists recorded actions, filters them and exports what is shown as CSV. */
import assert from "node:assert/strict";
import { allHydrated, hasChromium, launchBrowser, newSession, screenshot, startServer } from "./_server.ts";

const run = await hasChromium();

Deno.test({
  name: "e2e: Settings › Audit shows actions newest first, filters by user and action, exports the filter",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [
        { username: "alice", perm: { create: true, modify: true, delete: true, download: true } },
        { username: "bob", perm: { create: true, download: true } },
      ],
    });
    const browser = await launchBrowser();
    try {
      const as = (user: string, path: string, method: string) =>
        server.t.request(path, { as: user, method, body: method === "POST" ? "x" : undefined });
      assert.equal((await as("alice", "/api/resources/report.txt", "POST")).status, 200);
      assert.equal((await as("alice", "/api/resources/report.txt", "DELETE")).status, 204);
      assert.equal((await as("bob", "/api/resources/notes.txt", "POST")).status, 200);
      assert.equal((await as("bob", "/api/resources/notes.txt", "DELETE")).status, 403);

      const { page } = await newSession(browser, server, { as: "admin" });
      const rows = page.getByTestId("audit-entry");

      await t.step("the nav leads admins to the audit log", async () => {
        await page.goto(`${server.url}/settings/profile`);
        await allHydrated(page);
        await page.getByTestId("settings-nav").getByRole("link", { name: "Audit log" }).click();
        await page.waitForURL(/\/settings\/audit$/);
        await allHydrated(page);
        await rows.first().waitFor();
        assert.equal(await rows.count(), 4);
        // Newest first: bob's refused delete.
        assert.match(
          await rows.first().innerText(),
          /bob[\s\S]*file\.delete[\s\S]*notes\.txt[\s\S]*Failed \(403\)/,
        );
        await screenshot(page, "audit-all");
      });

      await t.step("filtering by user and action narrows the table", async () => {
        await page.getByTestId("audit-filter-user").fill("alice");
        await page.getByTestId("audit-filter-action").fill("file.delete");
        await page.getByTestId("audit-apply").click();
        await page.waitForFunction(() =>
          document.querySelectorAll('[data-testid="audit-entry"]').length === 1
        );
        assert.match(await rows.first().innerText(), /alice[\s\S]*file\.delete[\s\S]*report\.txt/);
        await screenshot(page, "audit-filtered");
      });

      await t.step("the CSV export carries the filter", async () => {
        const href = await page.getByTestId("audit-export").getAttribute("href");
        assert.ok(href?.includes("user=alice") && href.includes("format=csv"), href ?? "");
        const res = await page.request.get(`${server.url}${href!.replace(/^https?:\/\/[^/]+/, "")}`);
        assert.equal(res.status(), 200);
        const lines = (await res.text()).trim().split("\r\n");
        assert.equal(lines.length, 2, lines.join("\n"));
        // Every text field is quoted (a cell can never start a formula).
        assert.match(lines[1], /,"alice","file\.delete","\/report\.txt",/);
      });

      await t.step("a filter with no match says so", async () => {
        await page.getByTestId("audit-filter-user").fill("nobody");
        await page.getByTestId("audit-apply").click();
        await page.getByTestId("audit-empty").waitFor();
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});

Deno.test({
  name: "e2e: a user who is not an admin has no audit link and gets 403 on the page",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startServer({ users: [{ username: "alice", perm: { download: true } }] });
    const browser = await launchBrowser();
    try {
      const { page } = await newSession(browser, server, { as: "alice" });
      await page.goto(`${server.url}/settings/profile`);
      await allHydrated(page);
      assert.equal(await page.getByTestId("settings-nav").locator('[data-section="audit"]').count(), 0);
      const res = await page.goto(`${server.url}/settings/audit`);
      assert.equal(res?.status(), 403);
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
