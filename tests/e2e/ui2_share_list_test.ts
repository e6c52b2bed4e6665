/** Browser tests: share links are told apart in the management table and the share dialog. */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { shares } from "../../lib/storage/mod.ts";
import {
  hasChromium,
  hydrated,
  launchBrowser,
  newSession,
  openFiles,
  screenshot,
  startServer,
  writeFile,
} from "./_server.ts";

const run = await hasChromium();

function rowHashes(page: Page, scope: string): Promise<string[]> {
  return page.$$eval(`${scope} [data-hash]`, (els) => els.map((e) => e.getAttribute("data-hash")!));
}

Deno.test({
  name: "share links: name, lock for password links, created and expiry dates, sorted by path then date",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{ username: "alice", perm: { create: true, download: true, share: true, delete: true } }],
    });
    const browser = await launchBrowser();
    try {
      await writeFile(server, "/b.txt", "b");
      await writeFile(server, "/a/x.txt", "x");
      const kv = server.t.deps.kv;
      const id = server.t.users.alice.id;
      const now = Math.floor(Date.now() / 1000);
      const put = (hash: string, path: string, extra: Partial<shares.StoredShare>) =>
        shares.createShare(kv, { hash, path, userID: id, expire: 0, passwordHash: "", token: "", ...extra });
      await put("b-older", "/b.txt", { created: now - 3 * 86400, expire: now + 7200 });
      await put("b-newer", "/b.txt", { created: now - 3600, passwordHash: "$2a$10$x", token: "t" });
      await put("b-legacy", "/b.txt", {});
      await put("a-folder", "/a/", { created: now - 60 });

      await t.step(
        "the management table sorts by path then date and shows name, lock and dates",
        async () => {
          for (const scheme of ["light", "dark"] as const) {
            const { page, context } = await newSession(browser, server, { as: "alice", colorScheme: scheme });
            await page.goto(`${server.url}/settings/shares`);
            await hydrated(page, "ShareManager");
            await page.locator('[data-testid="share-manager"] tbody tr').first().waitFor();
            assert.deepEqual(await rowHashes(page, '[data-testid="share-manager"] tbody'), [
              "a-folder",
              "b-newer",
              "b-older",
              "b-legacy",
            ]);
            const row = (h: string) => page.locator(`[data-testid="share-manager"] tr[data-hash="${h}"]`);
            assert.equal(await row("b-newer").getByTestId("share-link-name").textContent(), "b-newer");
            assert.equal(await row("b-newer").getByRole("img", { name: "Password protected" }).count(), 1);
            assert.equal(await row("b-older").getByRole("img", { name: "Password protected" }).count(), 0);
            assert.match(await row("b-older").getByTestId("share-created").textContent() ?? "", /3 days ago/);
            assert.match(await row("b-older").getByTestId("share-expiry").textContent() ?? "", /in 2 hours/);
            assert.equal(await row("b-legacy").getByTestId("share-created").textContent(), "—");
            assert.equal(await row("b-legacy").getByTestId("share-expiry").textContent(), "Permanent");
            assert.equal(await row("a-folder").getByTestId("share-copy").count(), 1);
            assert.equal(await row("a-folder").getByTestId("share-delete-link").count(), 1);
            await screenshot(page, `ui2-share-manager-${scheme}`);
            await context.close();
          }
          const { page, context } = await newSession(browser, server, {
            as: "alice",
            viewport: { width: 390, height: 800 },
          });
          await page.goto(`${server.url}/settings/shares`);
          await hydrated(page, "ShareManager");
          await page.locator('[data-testid="share-manager"] tbody tr').first().waitFor();
          await screenshot(page, "ui2-share-manager-phone");
          await context.close();
        },
      );

      await t.step("the share dialog lists the file's links the same way", async () => {
        for (const scheme of ["light", "dark"] as const) {
          const { page, context } = await newSession(browser, server, { as: "alice", colorScheme: scheme });
          await openFiles(page, server, "/");
          await page.locator('[data-testid="listing"] [data-name="b.txt"]').click();
          await page.locator('[data-action="share"]').click();
          await page.locator('[data-testid="share-links"] li').first().waitFor();
          assert.deepEqual(await rowHashes(page, '[data-testid="share-links"]'), [
            "b-newer",
            "b-older",
            "b-legacy",
          ]);
          const item = (h: string) => page.locator(`[data-testid="share-links"] li[data-hash="${h}"]`);
          assert.equal(await item("b-newer").getByRole("img", { name: "Password protected" }).count(), 1);
          assert.match(
            await item("b-newer").getByTestId("share-created").textContent() ?? "",
            /Created 1 hour ago/,
          );
          assert.match(
            await item("b-older").getByTestId("share-expiry").textContent() ?? "",
            /Expires in 2 hours/,
          );
          assert.equal(await item("b-legacy").getByTestId("share-created").count(), 0);
          await screenshot(page, `ui2-share-dialog-${scheme}`);
          await context.close();
        }
      });

      await t.step("a link made now carries its creation time", async () => {
        const res = await server.t.request("/api/share/a/x.txt", { as: "alice", method: "POST", body: "{}" });
        const made = await res.json();
        assert.ok(Math.abs(made.created - Math.floor(Date.now() / 1000)) <= 5);
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
