/**
 * Browser tests of share details: the dialog's starting mode, New and Cancel, the duration field's bounds, and on
 * a folder's public page no "Open file" button but a copy button for one selected file.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import * as shares from "../../lib/storage/shares.ts";
import {
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

async function openShareDialog(page: Page, name: string): Promise<void> {
  await row(page, name).click();
  await page.locator('.actions [data-action="share"]').click();
  await page.getByTestId("share").waitFor();
}

Deno.test({
  name: "share details: dialog modes, New and Cancel, duration bounds, folder page buttons",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{ username: "alice", perm: { create: true, download: true, share: true } }],
    });
    const browser = await launchBrowser();
    try {
      await writeFile(server, "/linked.txt", "linked");
      await writeFile(server, "/fresh.txt", "fresh");
      await writeFile(server, "/docs/a.txt", "a");
      await writeFile(server, "/docs/b.txt", "b");
      const stored = { userID: server.t.users.alice.id, expire: 0, passwordHash: "", token: "" };
      await shares.createShare(server.t.deps.kv, { hash: "linked-1", path: "/linked.txt", ...stored });
      await shares.createShare(server.t.deps.kv, { hash: "docs-1", path: "/docs/", ...stored });
      await setPrefs(server, "alice", { viewMode: "list" });
      const { page } = await newSession(browser, server, { as: "alice" });
      await openFiles(page, server, "/");

      await t.step(
        "with links the dialog starts in the list; New opens the form, Cancel goes back",
        async () => {
          await openShareDialog(page, "linked.txt");
          await page.locator('[data-testid="share-links"] li[data-hash="linked-1"]').waitFor();
          assert.equal(await page.getByTestId("share-form").count(), 0);
          await page.getByTestId("share-new").click();
          await page.getByTestId("share-form").waitFor();
          await page.getByTestId("share").getByRole("button", { name: "Cancel" }).click();
          await page.locator('[data-testid="share-links"] li[data-hash="linked-1"]').waitFor();
          await page.getByTestId("share").getByRole("button", { name: "Close" }).click();
          await page.getByTestId("share").waitFor({ state: "detached" });
        },
      );

      await t.step("without links it starts in the form; Cancel closes the dialog", async () => {
        await openShareDialog(page, "fresh.txt");
        await page.getByTestId("share-form").waitFor();
        await page.getByTestId("share").getByRole("button", { name: "Cancel" }).click();
        await page.getByTestId("share").waitFor({ state: "detached" });
      });

      await t.step("the duration field takes whole numbers from 1 to 2147483647", async () => {
        await openShareDialog(page, "fresh.txt");
        const expires = page.getByTestId("share-expires");
        assert.equal(await expires.getAttribute("min"), "1");
        assert.equal(await expires.getAttribute("max"), "2147483647");
        assert.equal(await expires.getAttribute("step"), "1");
        await expires.fill("0");
        assert.equal(await expires.evaluate((e) => (e as HTMLInputElement).checkValidity()), false);
        await expires.fill("2147483648");
        assert.equal(await expires.evaluate((e) => (e as HTMLInputElement).checkValidity()), false);
        await expires.fill("2147483647");
        assert.equal(await expires.evaluate((e) => (e as HTMLInputElement).checkValidity()), true);
        await page.getByTestId("share").getByRole("button", { name: "Cancel" }).click();
        await page.getByTestId("share").waitFor({ state: "detached" });
      });

      await t.step(
        "a folder's public page has no Open file; one selected file can have its download link copied",
        async () => {
          const visitor = await newSession(browser, server);
          await visitor.context.grantPermissions(["clipboard-read", "clipboard-write"], {
            origin: server.url,
          });
          const v = visitor.page;
          await v.goto(`${server.url}/share/docs-1`);
          await hydrated(v, "SharePage");
          await v.getByTestId("share-items").waitFor();
          assert.equal(await v.getByTestId("share-download").count(), 1);
          assert.equal(await v.getByTestId("share-open").count(), 0);
          assert.equal(await v.getByTestId("share-copy-file").count(), 0);
          await v.locator('[data-testid="share-items"] tr[data-name="a.txt"] input[type="checkbox"]').check();
          await v.getByTestId("share-copy-file").click();
          await v.getByTestId("toast-success").filter({ hasText: "Link copied" }).waitFor();
          assert.match(
            await v.evaluate(() => navigator.clipboard.readText()),
            /\/api\/public\/dl\/docs-1\/a\.txt$/,
          );
          await v.locator('[data-testid="share-items"] tr[data-name="b.txt"] input[type="checkbox"]').check();
          assert.equal(await v.getByTestId("share-copy-file").count(), 0, "two selected: no single link");
          await visitor.context.close();
        },
      );
      await t.step("a file's info box shows its name, relative modification time and size", async () => {
        const visitor = await newSession(browser, server);
        const v = visitor.page;
        await v.goto(`${server.url}/share/linked-1`);
        await hydrated(v, "SharePage");
        await v.getByTestId("share-info").waitFor();
        assert.equal(await v.getByTestId("share-name").innerText(), "linked.txt");
        assert.match(await v.getByTestId("share-size").innerText(), /^6\sB$/);
        const when = v.locator(".share-info .share-meta[title]");
        assert.match(await when.innerText(), /ago|now/);
        assert.ok((await when.getAttribute("title"))?.length);
        await visitor.context.close();
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
