/** Browser test of upload-only share links: made in the share dialog, used anonymously to upload a file. */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
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
  name: "file drop: the share dialog makes a drop link, a visitor uploads without seeing the folder",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startServer({
      users: [{ username: "alice", perm: { create: true, download: true, share: true } }],
    });
    const browser = await launchBrowser();
    try {
      await writeFile(server, "/inbox/secret.txt", "hidden");
      const alice = await newSession(browser, server, { as: "alice" });
      const page = alice.page;
      await openFiles(page, server, "/");
      await page.locator('[data-testid="listing"] [data-name="inbox"]').click();
      await page.locator('[data-action="share"]').click();
      await page.getByTestId("share-form").waitFor();
      await page.getByTestId("share-drop").check();
      await page.getByTestId("share-drop-files").fill("2");
      await page.getByTestId("share-create").click();
      const item = page.locator('[data-testid="share-links"] li');
      await item.first().waitFor();
      await page.getByTestId("share-drop-badge").waitFor();
      const hash = (await item.first().getAttribute("data-hash"))!;
      const links = await (await server.t.request("/api/share/inbox/", { as: "alice" })).json();
      assert.equal(links[0].kind, "drop");
      assert.equal(links[0].maxFiles, 2);

      const visitor = await newSession(browser, server);
      const vpage = visitor.page;
      await vpage.goto(`${server.url}/share/${hash}`);
      await hydrated(vpage, "SharePage");
      await vpage.getByTestId("share-drop-zone").waitFor();
      assert.equal(await vpage.getByText("secret.txt").count(), 0, "the folder's contents stay hidden");
      await vpage.getByTestId("share-drop-input").setInputFiles({
        name: "secret.txt",
        mimeType: "text/plain",
        buffer: Buffer.from("dropped by a visitor"),
      });
      await vpage.locator('[data-testid="share-drop-items"] li[data-state="done"]').waitFor();
      await screenshot(vpage, "share-drop");
      await vpage.getByText("Files you may still upload: 1").waitFor();
      assert.equal(await Deno.readTextFile(`${server.t.root}/inbox/secret (1).txt`), "dropped by a visitor");
      assert.equal(await Deno.readTextFile(`${server.t.root}/inbox/secret.txt`), "hidden");

      // A password link: the password card first, then the drop zone.
      const res = await server.t.request("/api/share/inbox/", {
        method: "POST",
        as: "alice",
        body: JSON.stringify({ kind: "drop", password: "drop pass" }),
      });
      const locked = (await res.json()).hash;
      await vpage.goto(`${server.url}/share/${locked}`);
      await hydrated(vpage, "SharePage");
      await vpage.getByTestId("share-password-input").fill("wrong");
      await vpage.getByTestId("share-password-submit").click();
      await vpage.getByTestId("share-wrong").waitFor();
      await vpage.getByTestId("share-password-input").fill("drop pass");
      await vpage.getByTestId("share-password-submit").click();
      await vpage.getByTestId("share-drop-zone").waitFor();
      await vpage.getByTestId("share-drop-input").setInputFiles({
        name: "report.pdf",
        mimeType: "application/pdf",
        buffer: Buffer.alloc(50_000, 1),
      });
      await vpage.locator('[data-testid="share-drop-items"] li[data-state="done"]').waitFor();
      assert.equal((await Deno.stat(`${server.t.root}/inbox/report.pdf`)).size, 50_000);
      await visitor.context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
