/**
 * Browser tests of smaller details of the files and share-management pages: the info prompt for a folder and for
 * several items, the share action's single-item rule, a broken link's size text, trimmed new names, and the
 * share table (empty message, owner column for admins only, "Link copied", the nav link needs the permission).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import * as shares from "../../lib/storage/shares.ts";
import {
  allHydrated,
  hasChromium,
  hydrated,
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
  name: "spec details: info prompt, share action, broken links, trimmed names, share table",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [
        {
          username: "alice",
          perm: { create: true, rename: true, delete: true, download: true, share: true },
        },
        { username: "bob", perm: { download: true } },
      ],
    });
    const browser = await launchBrowser();
    try {
      await writeFile(server, "/a.txt", "aaa");
      await writeFile(server, "/b.txt", "bbbbb");
      await Deno.mkdir(`${server.t.root}/docs`);
      await Deno.symlink(`${server.t.root}/nowhere`, `${server.t.root}/dangling`);
      await setPrefs(server, "alice", { viewMode: "list" });
      const { page, context } = await newSession(browser, server, { as: "alice" });
      await openFiles(page, server, "/");
      const info = page.getByTestId("info");

      await t.step("info with nothing selected counts the folder's files and folders", async () => {
        await page.locator('[data-action="info"]').click();
        await info.waitFor();
        const text = await info.innerText();
        assert.match(text, /Folders\s+1\b/);
        assert.match(text, /Files\s+3\b/, "two files and the broken link");
        await info.getByRole("button", { name: "OK" }).click();
        await info.waitFor({ state: "detached" });
      });

      await t.step("info for several items says how many and sums their sizes; OK closes", async () => {
        await row(page, "a.txt").click();
        await row(page, "b.txt").click({ modifiers: ["Control"] });
        await page.locator('[data-action="info"]').click();
        const text = await info.innerText();
        assert.match(text, /2 items selected/);
        assert.match(text, /8 bytes/);
        await info.getByRole("button", { name: "OK" }).click();
        await info.waitFor({ state: "detached" });
      });

      await t.step("the share action is offered for exactly one selected item", async () => {
        const share = page.locator('.actions [data-action="share"]');
        assert.equal(await share.count(), 0, "two selected");
        await row(page, "a.txt").click();
        await share.waitFor();
        await page.keyboard.press("Escape");
        await page.locator('[data-testid="listing"] [aria-selected="true"]').waitFor({ state: "detached" });
        assert.equal(await share.count(), 0, "none selected");
      });

      await t.step("a broken link shows 'invalid link' as its size", async () => {
        assert.equal((await row(page, "dangling").locator(".size").innerText()).trim(), "invalid link");
      });

      await t.step("a new folder's name is trimmed", async () => {
        await page.getByTestId("sidebar").getByText("New folder").click();
        await page.getByTestId("new-dir").locator("input").fill("  spaced  ");
        await page.keyboard.press("Enter");
        await page.waitForURL(/\/files\/spaced\/$/);
        assert.ok((await Deno.stat(`${server.t.root}/spaced`)).isDirectory);
      });

      await t.step(
        "with no links the share table says it is lonely; no owner column for a user",
        async () => {
          await page.goto(`${server.url}/settings/shares`);
          await hydrated(page, "ShareManager");
          await page.getByTestId("share-lonely").waitFor();
          assert.match(await page.getByTestId("share-lonely").innerText(), /lonely/);
          const id = server.t.users.alice.id;
          await shares.createShare(server.t.deps.kv, {
            hash: "alice-link",
            path: "/a.txt",
            userID: id,
            expire: 0,
            passwordHash: "",
            token: "",
            created: Math.floor(Date.now() / 1000),
          });
          await page.reload();
          await hydrated(page, "ShareManager");
          await page.locator('tr[data-hash="alice-link"]').waitFor();
          assert.equal(await page.locator("th", { hasText: "Owner" }).count(), 0);
        },
      );

      await t.step("the copy button says the link was copied", async () => {
        await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
        await page.locator('tr[data-hash="alice-link"]').getByTestId("share-copy").click();
        await page.getByTestId("toast-success").filter({ hasText: "Link copied" }).waitFor();
        assert.match(await page.evaluate(() => navigator.clipboard.readText()), /\/share\/alice-link$/);
      });

      await t.step("an admin sees the owner column with the owner's name", async () => {
        const admin = await newSession(browser, server, { as: "admin" });
        await admin.page.goto(`${server.url}/settings/shares`);
        await hydrated(admin.page, "ShareManager");
        const line = admin.page.locator('tr[data-hash="alice-link"]');
        await line.waitFor();
        assert.equal(await admin.page.locator("th", { hasText: "Owner" }).count(), 1);
        assert.match(await line.innerText(), /alice/);
        await admin.context.close();
      });

      await t.step(
        "without the share permission there is no shares link and the page is refused",
        async () => {
          const bob = await newSession(browser, server, { as: "bob" });
          await bob.page.goto(`${server.url}/settings/profile`);
          await allHydrated(bob.page);
          assert.equal(await bob.page.locator('a[href$="/settings/shares"]').count(), 0);
          await bob.page.goto(`${server.url}/settings/shares`);
          await bob.page.getByText(/forbidden|not allowed|permission/i).first().waitFor();
          assert.equal(await bob.page.getByTestId("share-manager").count(), 0);
          await bob.context.close();
        },
      );
      await t.step("deleting a link ends with the share-deleted message", async () => {
        const line = page.locator('tr[data-hash="alice-link"]');
        await line.getByTestId("share-delete-link").click();
        const deleted = page.getByTestId("toast-success").filter({ hasText: "Share link deleted" }).waitFor();
        await page.getByTestId("share-delete").getByRole("button", { name: "Delete" }).click();
        await deleted;
        await line.waitFor({ state: "detached" });
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
