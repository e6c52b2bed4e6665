/**
 * Browser tests of uploads, continued: a reload in the middle of an upload that resumes, a dropped connection, the
 * create permission, an upload the server refuses, and the mobile bar. Chunks pass through the test's gate.
 */
import assert from "node:assert/strict";
import { hasChromium, listedNames, newSession, openFiles, screenshot, writeFile } from "./_server.ts";
import {
  bytes,
  CHUNK,
  dropFiles,
  exists,
  gated,
  hashOf,
  nextFrame,
  openUploadSession,
  panelGone,
  pick,
  settled,
  sha256,
} from "./_upload.ts";

const run = await hasChromium();

Deno.test({
  name: "upload: resume after a reload, a dropped connection, permissions, refusals and the phone bar",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const { server, browser, local, page, gate, close } = await openUploadSession();
    try {
      await t.step("a reload in the middle of a large upload resumes from the server's offset", async () => {
        const big = bytes(1024 * 1024, 8);
        await Deno.writeFile(`${local}/big.bin`, big);
        gate.hold();
        const before = gate.ackedCount;
        await pick(page, "files", `${local}/big.bin`);
        gate.allow(10);
        await gate.acked(before + 10);
        const records = await page.evaluate(() =>
          Object.keys(localStorage).filter((k) => k.startsWith("tus::"))
        );
        assert.equal(records.length, 1, "a resumable record is stored");
        // Leaving while uploading asks first (the leave warning); the test confirms.
        let warned = "";
        page.once("dialog", (d) => {
          warned = d.type();
          void d.accept();
        });
        await page.reload();
        await settled(page);
        assert.equal(warned, "beforeunload");
        assert.ok(!(await listedNames(page)).includes("big.bin"), "the partial upload is not in the listing");

        const seen: { method: string; offset: string | null }[] = [];
        page.on("request", (r) => {
          if (new URL(r.url()).pathname.startsWith("/api/tus/")) {
            seen.push({ method: r.method(), offset: r.headers()["upload-offset"] ?? null });
          }
        });
        gate.open();
        await pick(page, "files", `${local}/big.bin`);
        await page.locator('[data-testid="listing"] [data-name="big.bin"]').waitFor();
        await panelGone(page);
        assert.equal(await hashOf(server, "/big.bin"), sha256(big));
        assert.equal(seen[0]?.method, "HEAD", JSON.stringify(seen.slice(0, 3)));
        assert.ok(!seen.some((r) => r.method === "POST"), "no new upload was created");
        const patches = seen.filter((r) => r.method === "PATCH");
        assert.equal(Number(patches[0].offset), 10 * CHUNK, "resumed where the server stopped, not at 0");
        assert.equal(patches.length, big.length / CHUNK - 10, "only the missing chunks were sent");
        assert.deepEqual(
          await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("tus::"))),
          [],
          "the record is gone after success",
        );
      });

      await t.step("a dropped connection shows an error toast and leaves no resumable record", async () => {
        await Deno.writeFile(`${local}/net.bin`, bytes(64 * 1024, 9));
        // retryCount 1: the first attempt and one retry both fail.
        gate.failures = 2;
        await pick(page, "files", `${local}/net.bin`);
        const toast = page.locator(".toast.error", { hasText: "net.bin" });
        await toast.waitFor();
        assert.match(await toast.innerText(), /Cannot upload "net\.bin": The server can't be reached\./);
        await panelGone(page);
        assert.equal(gate.failures, 0);
        assert.deepEqual(
          await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("tus::"))),
          [],
        );
        await toast.getByRole("button").click();
        await toast.waitFor({ state: "detached" });
      });

      await t.step(
        "without the create permission there is no upload button and drops are refused",
        async () => {
          const { page: bobPage } = await newSession(browser, server, { as: "bob" });
          await openFiles(bobPage, server, "/");
          await bobPage.locator('.actions > [data-action="info"]').waitFor();
          assert.equal(await bobPage.locator('[data-action="upload"]').count(), 0);
          const file = [{ name: "bob.txt", text: "bob" }];
          await dropFiles(bobPage, '[data-testid="listing"]', file, { drop: false });
          await nextFrame(bobPage);
          assert.equal(await bobPage.getByTestId("upload-dropzone").count(), 0);
          await dropFiles(bobPage, '[data-testid="listing"]', file, { drop: true });
          await nextFrame(bobPage);
          assert.equal(await bobPage.getByTestId("upload-panel").count(), 0);
          assert.ok(!(await exists(server, "/bob.txt")));
          await bobPage.close();
        },
      );

      await t.step(
        "an upload the server refuses shows an error toast (replace without modify: 403)",
        async () => {
          await writeFile(server, "/clash.txt", "old");
          await Deno.writeTextFile(`${local}/clash.txt`, "new");
          const { page: carolPage } = await newSession(browser, server, { as: "carol" });
          await openFiles(carolPage, server, "/");
          await pick(carolPage, "files", `${local}/clash.txt`);
          await carolPage.getByTestId("replace").getByRole("button", { name: "Replace" }).click();
          const toast = carolPage.locator(".toast.error");
          await toast.waitFor();
          assert.match(
            await toast.innerText(),
            /Cannot upload "clash\.txt": You don't have permissions to access this\./,
          );
          await panelGone(carolPage);
          assert.equal(await Deno.readTextFile(`${server.t.root}/clash.txt`), "old");
          await carolPage.close();
        },
      );

      await t.step("on a phone the panel is a bar that expands", async () => {
        // A name taken on the server: the replace prompt comes first, as on a desktop.
        await writeFile(server, "/one.bin", "old");
        const { page: phone } = await newSession(browser, server, {
          as: "alice",
          viewport: { width: 390, height: 800 },
        });
        const phoneGate = await gated(phone);
        await openFiles(phone, server, "/");
        phoneGate.hold();
        await pick(phone, "files", `${local}/one.bin`, { menu: true });
        await phone.getByTestId("replace").getByRole("button", { name: "Replace" }).click();
        const panel = phone.getByTestId("upload-panel");
        await panel.waitFor();
        assert.match((await panel.getAttribute("class"))!, /collapsed/);
        assert.equal(await phone.getByTestId("upload-list").count(), 0);
        const box = (await panel.boundingBox())!;
        assert.ok(box.width >= 389 && box.height < 100, JSON.stringify(box));
        await screenshot(phone, "upload-panel-mobile");
        await phone.getByTestId("upload-toggle").click();
        await phone.getByTestId("upload-list").waitFor();
        await screenshot(phone, "upload-panel-mobile-open");
        phoneGate.open();
        await panelGone(phone);
        await phone.close();
      });
    } finally {
      await close();
    }
  },
});
