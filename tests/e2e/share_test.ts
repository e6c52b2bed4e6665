/** Browser tests of share links: the share dialog, the public page (password, download, folder) and management. */
import assert from "node:assert/strict";
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

Deno.test({
  name:
    "share: dialog (password, custom link), public page (password, download, folders, +N, zip), management",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{ username: "alice", perm: { create: true, download: true, share: true, delete: true } }],
    });
    const browser = await launchBrowser();
    try {
      await writeFile(server, "/report.txt", "quarterly numbers");
      for (const n of ["a.txt", "b.txt", "c.txt", "sub/d.txt"]) await writeFile(server, `/docs/${n}`, n);
      const alice = await newSession(browser, server, { as: "alice" });
      let hash = "";

      await t.step("the share dialog creates a password-protected link", async () => {
        const page = alice.page;
        await openFiles(page, server, "/");
        await page.locator('[data-testid="listing"] [data-name="report.txt"]').click();
        await page.locator('[data-action="share"]').click();
        // No links yet: the dialog starts in creation mode.
        const form = page.getByTestId("share-form");
        await form.waitFor();
        assert.equal(await page.getByTestId("share-unit").inputValue(), "hours");
        await page.getByTestId("share-expires").fill("2");
        await page.getByTestId("share-password").fill("s3cret pass");
        await page.getByTestId("share-create").click();
        const item = page.locator('[data-testid="share-links"] li');
        await item.first().waitFor();
        assert.equal(await item.count(), 1);
        hash = (await item.first().getAttribute("data-hash"))!;
        await screenshot(page, "share-dialog");
        assert.match(hash, /^[A-Za-z0-9_-]{8}$/);
        // Back to creation: the form was reset.
        await page.getByTestId("share-new").click();
        assert.equal(await page.getByTestId("share-expires").inputValue(), "");
        assert.equal(await page.getByTestId("share-password").inputValue(), "");
        await page.keyboard.press("Escape");
        const res = await server.t.request("/api/share/report.txt", { as: "alice" });
        const links = await res.json();
        assert.equal(links.length, 1);
        assert.equal(links[0].hasPassword, true);
        assert.ok(links[0].expire > Date.now() / 1000 + 3600);
      });

      await t.step("a visitor needs the password, sees the info box and downloads", async () => {
        const visitor = await newSession(browser, server);
        const page = visitor.page;
        await page.goto(`${server.url}/share/${hash}`);
        await hydrated(page, "SharePage");
        await page.getByTestId("share-password-card").waitFor();
        assert.equal(await page.getByTestId("share-wrong").count(), 0);
        await page.getByTestId("share-password-input").fill("wrong");
        await page.getByTestId("share-password-submit").click();
        await page.getByTestId("share-wrong").waitFor();
        await screenshot(page, "share-password");
        await page.getByTestId("share-password-input").fill("s3cret pass");
        await page.getByTestId("share-password-submit").click();
        await page.getByTestId("share-info").waitFor();
        assert.equal(await page.getByTestId("share-name").textContent(), "report.txt");
        await screenshot(page, "share-file");
        assert.equal(await page.getByTestId("share-qr").count(), 1);
        assert.equal(await page.getByTestId("share-open").count(), 1);
        const [download] = await Promise.all([
          page.waitForEvent("download"),
          page.getByTestId("share-download").click(),
        ]);
        assert.equal(download.suggestedFilename(), "report.txt");
        const path = await download.path();
        assert.equal(await Deno.readTextFile(path!), "quarterly numbers");
        await visitor.context.close();
      });

      await t.step("a folder share lists its items read-only", async () => {
        const res = await server.t.request("/api/share/docs/", { as: "alice", method: "POST", body: "{}" });
        const folder = await res.json();
        const visitor = await newSession(browser, server);
        const page = visitor.page;
        await page.goto(`${server.url}/share/${folder.hash}`);
        await hydrated(page, "SharePage");
        await page.getByTestId("share-items").waitFor();
        const names = await page.$$eval(
          '[data-testid="share-items"] tbody tr',
          (rows) => rows.map((r) => r.getAttribute("data-name")),
        );
        assert.deepEqual(names, ["sub", "a.txt", "b.txt", "c.txt"]);
        await screenshot(page, "share-folder");
        assert.equal(await page.getByTestId("share-name").textContent(), "docs");
        assert.match((await page.getByTestId("share-size").textContent())!, /4 items/);
        // Into the sub-folder and back through the breadcrumbs.
        await page.locator('[data-testid="share-items"] tr[data-name="sub"] a').click();
        await page.locator('[data-testid="share-items"] tr[data-name="d.txt"]').waitFor();
        assert.match(page.url(), new RegExp(`/share/${folder.hash}/sub/$`));
        await page.getByTestId("share-crumbs").getByRole("link", { name: "docs" }).click();
        await page.locator('[data-testid="share-items"] tr[data-name="a.txt"]').waitFor();
        await visitor.context.close();
      });

      await t.step("custom links: refused without a word character, created with one", async () => {
        const page = alice.page;
        await openFiles(page, server, "/");
        await page.locator('[data-testid="listing"] [data-name="docs"]').click();
        await page.locator('[data-action="share"]').click();
        // The folder has a link already (previous step): listing mode first, with that link.
        await page.locator('[data-testid="share-links"] li').first().waitFor();
        await page.getByTestId("share-new").click();
        await page.getByTestId("share-custom").check();
        assert.equal(
          await page.getByTestId("share-custom-link").inputValue(),
          "docs",
          "defaults to the name",
        );
        await page.getByTestId("share-custom-link").fill("---");
        await page.getByTestId("share-create").click();
        await page.locator('[data-testid="share"] [role="alert"]').waitFor();
        await page.getByTestId("share-custom-link").fill("team-docs");
        await page.getByTestId("share-create").click();
        await page.locator('[data-testid="share-links"] li[data-hash="team-docs"]').waitFor();
        await page.keyboard.press("Escape");
      });

      await t.step(
        "a big shared folder shows 100 items, +N for more, and downloads a selection",
        async () => {
          for (let i = 0; i < 105; i++) {
            await writeFile(server, `/big/f${String(i).padStart(3, "0")}.txt`, `n${i}`);
          }
          const res = await server.t.request("/api/share/big/", { as: "alice", method: "POST", body: "{}" });
          const big = await res.json();
          const visitor = await newSession(browser, server);
          const page = visitor.page;
          await page.goto(`${server.url}/share/${big.hash}`);
          await hydrated(page, "SharePage");
          const rows = page.locator('[data-testid="share-items"] tbody tr');
          await rows.first().waitFor();
          assert.equal(await rows.count(), 100);
          assert.equal(await page.getByTestId("share-more").textContent(), "Show 5 more");
          await page.getByTestId("share-more").click();
          assert.equal(await rows.count(), 105);
          await rows.nth(0).locator("input").check();
          await rows.nth(1).locator("input").check();
          const [download] = await Promise.all([
            page.waitForEvent("download"),
            page.getByTestId("share-dl-selected").click(),
          ]);
          assert.match(download.suggestedFilename(), /\.zip$/);
          const zip = await download.path();
          const list = new Deno.Command("zipinfo", { args: ["-1", zip!], stdout: "piped" }).outputSync();
          assert.deepEqual(new TextDecoder().decode(list.stdout).trim().split("\n"), [
            "f000.txt",
            "f001.txt",
          ]);
          await visitor.context.close();
        },
      );

      await t.step("the share management page deletes a link after confirmation", async () => {
        const page = alice.page;
        await page.goto(`${server.url}/settings/shares`);
        await hydrated(page, "ShareManager");
        const row = page.locator(`[data-testid="share-manager"] tr[data-hash="${hash}"]`);
        await row.waitFor();
        assert.equal(await page.locator('[data-testid="share-manager"] tbody tr').count(), 4);
        await screenshot(page, "share-settings");
        await row.getByTestId("share-delete-link").click();
        await page.getByTestId("share-delete").getByRole("button", { name: "Delete" }).click();
        await row.waitFor({ state: "detached" });
        const res = await server.t.request("/api/shares", { as: "alice" });
        const left = await res.json();
        // An admin sees every owner's links with the owner's name.
        const admin = await newSession(browser, server, { as: "admin" });
        await admin.page.goto(`${server.url}/settings/shares`);
        await hydrated(admin.page, "ShareManager");
        const adminRow = admin.page.locator(`[data-testid="share-manager"] tr[data-hash="team-docs"]`);
        await adminRow.waitFor();
        assert.match((await adminRow.textContent())!, /alice/);
        await admin.context.close();
        assert.equal(left.length, 3);
        assert.ok(
          !left.some((l: { hash: string }) => l.hash === hash),
        );
      });
      await alice.context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
