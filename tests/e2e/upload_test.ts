/**
 * Browser tests of uploads: the upload prompt (files and a folder) with the panel showing progress, cancelling one
 * upload and aborting all, both answers of the replace prompt, drops onto the listing and onto a folder row.
 * (Resuming, errors, permissions and the mobile bar: upload_resume_test.ts.)
 *
 * Chunk PATCHes pass through a gate the test opens chunk by chunk, so in-between states are observed without
 * timing guesses.
 */
import assert from "node:assert/strict";
import { hasChromium, openFiles, screenshot, writeFile } from "./_server.ts";
import {
  bytes,
  dropFiles,
  exists,
  hashOf,
  nextFrame,
  openUploadSession,
  panelGone,
  pick,
  settled,
  sha256,
  throughPanel,
  waitForNames,
} from "./_upload.ts";

const run = await hasChromium();

Deno.test({
  name: "upload: files and a folder with progress, cancel, abort, conflicts and drops",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const { server, local, data, page, gate, close } = await openUploadSession();
    try {
      await t.step(
        "several files: per-file and overall progress, speed and ETA, then the listing reloads",
        async () => {
          gate.hold();
          await pick(page, "files", Object.keys(data).map((n) => `${local}/${n}`));
          const panel = page.getByTestId("upload-panel");
          await panel.waitFor();
          await page.waitForFunction(() =>
            document.querySelectorAll('[data-testid="upload-item"]').length === 3
          );
          assert.match(await panel.innerText(), /Uploading 3 files/);
          gate.allow(5);
          await gate.acked(5);
          await page.waitForFunction(() => {
            const pct = Number(
              document.querySelector('[data-testid="upload-panel"]')?.getAttribute("data-percent"),
            );
            return pct > 0 && pct < 100;
          });
          // One synchronous read of the DOM, in document order.
          const rows = await page.evaluate(() =>
            [...document.querySelectorAll('[data-testid="upload-item"]')].map((e) => ({
              name: e.getAttribute("data-name"),
              progress: Number(e.getAttribute("data-progress")),
              text: e.textContent,
              icon: e.querySelector("svg")?.getAttribute("aria-label"),
            }))
          );
          assert.deepEqual(rows.map((r) => r.name).sort(), ["one.bin", "three.txt", "two.bin"]);
          for (let i = 1; i < rows.length; i++) {
            assert.ok(rows[i - 1].progress <= rows[i].progress, `ascending: ${JSON.stringify(rows)}`);
          }
          for (const r of rows) {
            assert.ok(r.text!.includes(`${r.progress}%`), r.text!);
          }
          assert.equal(rows.find((r) => r.name === "three.txt")!.icon, "Text");
          assert.equal(rows.find((r) => r.name === "one.bin")!.icon, "File");
          assert.match(await page.getByTestId("upload-speed").innerText(), /^\d+\.\d\d MB\/s$/);
          assert.match(await page.getByTestId("upload-eta").innerText(), /^(\d\d:\d\d:\d\d|--:--:--)$/);
          assert.match(await panel.locator("progress").first().getAttribute("value") ?? "", /^\d+$/);
          await screenshot(page, "upload-panel");
          gate.open();
          await panelGone(page);
          await waitForNames(page, ["one.bin", "three.txt", "two.bin"]);
          for (const [name, b] of Object.entries(data)) {
            assert.equal(await hashOf(server, `/${name}`), sha256(b));
          }
        },
      );

      await t.step("a folder: its tree is created and its files uploaded", async () => {
        await throughPanel(page, gate, () => pick(page, "folder", `${local}/album`));
        await waitForNames(page, ["album", "one.bin", "three.txt", "two.bin"]);
        assert.equal(await hashOf(server, "/album/cover.bin"), sha256(bytes(100 * 1024, 3)));
        assert.equal(await Deno.readTextFile(`${server.t.root}/album/inner/notes.txt`), "notes");
      });

      await t.step(
        "cancelling one upload drops it (nothing left on the server), the others finish",
        async () => {
          await Deno.writeFile(`${local}/keep.bin`, bytes(128 * 1024, 4));
          await Deno.writeFile(`${local}/drop.bin`, bytes(128 * 1024, 5));
          gate.hold();
          await pick(page, "files", [`${local}/keep.bin`, `${local}/drop.bin`]);
          await page.waitForFunction(() =>
            document.querySelectorAll('[data-testid="upload-item"]').length === 2
          );
          await page.locator(
            '[data-testid="upload-item"][data-name="drop.bin"] [data-testid="upload-cancel"]',
          ).click();
          await page.waitForFunction(() =>
            document.querySelectorAll('[data-testid="upload-item"]').length === 1
          );
          assert.match(await page.getByTestId("upload-panel").innerText(), /Uploading 1 file\b/);
          gate.open();
          await panelGone(page);
          await waitForNames(page, ["album", "keep.bin", "one.bin", "three.txt", "two.bin"]);
          assert.ok(!(await exists(server, "/drop.bin")));
        },
      );

      await t.step("abort all asks 'Are you sure you want to abort?' and stops everything", async () => {
        await Deno.writeFile(`${local}/x1.bin`, bytes(96 * 1024, 6));
        await Deno.writeFile(`${local}/x2.bin`, bytes(96 * 1024, 7));
        gate.hold();
        await pick(page, "files", [`${local}/x1.bin`, `${local}/x2.bin`]);
        await page.getByTestId("upload-panel").waitFor();
        await page.getByTestId("upload-abort-all").click();
        const prompt = page.getByTestId("upload-abort");
        assert.match(await prompt.innerText(), /Are you sure you want to abort\?/);
        await prompt.getByRole("button", { name: "Cancel" }).click();
        await prompt.waitFor({ state: "detached" });
        await page.getByTestId("upload-panel").waitFor();
        await page.getByTestId("upload-abort-all").click();
        await page.getByTestId("upload-abort-confirm").click();
        await panelGone(page);
        gate.open();
        await settled(page);
        assert.ok(!(await exists(server, "/x1.bin")) && !(await exists(server, "/x2.bin")));
        await waitForNames(page, ["album", "keep.bin", "one.bin", "three.txt", "two.bin"]);
      });

      await t.step("a name conflict: Skip leaves the existing file, Replace overwrites it", async () => {
        await writeFile(server, "/clash.txt", "old");
        await Deno.writeTextFile(`${local}/clash.txt`, "new");
        await Deno.writeTextFile(`${local}/fresh.txt`, "fresh");
        await openFiles(page, server, "/");
        const replace = page.getByTestId("replace");
        await throughPanel(page, gate, async () => {
          await pick(page, "files", [`${local}/clash.txt`, `${local}/fresh.txt`]);
          await replace.getByRole("button", { name: "Skip" }).click();
        });
        await waitForNames(page, [
          "album",
          "clash.txt",
          "fresh.txt",
          "keep.bin",
          "one.bin",
          "three.txt",
          "two.bin",
        ]);
        assert.equal(await Deno.readTextFile(`${server.t.root}/clash.txt`), "old");
        assert.equal(await Deno.readTextFile(`${server.t.root}/fresh.txt`), "fresh");

        await throughPanel(page, gate, async () => {
          await pick(page, "files", [`${local}/clash.txt`]);
          await replace.getByRole("button", { name: "Replace" }).click();
        });
        assert.equal(await Deno.readTextFile(`${server.t.root}/clash.txt`), "new");
      });

      await t.step(
        "a folder picked onto an existing one is merged: Skip keeps the files that exist",
        async () => {
          await writeFile(server, "/album/inner/notes.txt", "edited on the server");
          await Deno.writeTextFile(`${local}/album/added.txt`, "added");
          await throughPanel(page, gate, async () => {
            await pick(page, "folder", `${local}/album`);
            await page.getByTestId("replace").getByRole("button", { name: "Skip" }).click();
          });
          assert.equal(await Deno.readTextFile(`${server.t.root}/album/added.txt`), "added");
          assert.equal(
            await Deno.readTextFile(`${server.t.root}/album/inner/notes.txt`),
            "edited on the server",
          );
        },
      );

      await t.step(
        "files dropped onto the listing upload into the current folder (drop zone shown)",
        async () => {
          const listing = '[data-testid="listing"]';
          const file = [{ name: "dropped.txt", text: "dropped" }];
          await dropFiles(page, listing, file, { drop: false });
          const zone = page.getByTestId("upload-dropzone");
          await zone.waitFor();
          assert.match(await zone.innerText(), /Drop to upload to "My files"/);
          await screenshot(page, "upload-dropzone");
          await throughPanel(page, gate, () => dropFiles(page, listing, file, { drop: true }));
          assert.equal(await zone.count(), 0);
          await page.locator('[data-testid="listing"] [data-name="dropped.txt"]').waitFor();
          assert.equal(await Deno.readTextFile(`${server.t.root}/dropped.txt`), "dropped");
        },
      );

      await t.step(
        "a drop onto a folder row uploads into it; onto a selected folder it is refused",
        async () => {
          const album = '[data-testid="listing"] [data-name="album"]';
          const file = [{ name: "in-album.txt", text: "in album" }];
          await dropFiles(page, album, file, { drop: false });
          await page.getByTestId("upload-dropzone").waitFor();
          assert.match(await page.getByTestId("upload-dropzone").innerText(), /Drop to upload to "album"/);
          assert.ok(await page.locator(album).evaluate((e) => e.classList.contains("drop-target")));
          await throughPanel(page, gate, () => dropFiles(page, album, file, { drop: true }));
          assert.equal(await Deno.readTextFile(`${server.t.root}/album/in-album.txt`), "in album");
          assert.ok(!(await page.locator(album).evaluate((e) => e.classList.contains("drop-target"))));

          await page.locator(album).click();
          await page.locator(`${album}[aria-selected="true"]`).waitFor();
          const refused = [{ name: "refused.txt", text: "no" }];
          await dropFiles(page, album, refused, { drop: false });
          const zone = page.getByTestId("upload-dropzone");
          await page.locator('[data-testid="upload-dropzone"][data-refused="true"]').waitFor();
          assert.match(await zone.innerText(), /Cannot drop onto "album": the folder is selected/);
          assert.ok(!(await page.locator(album).evaluate((e) => e.classList.contains("drop-target"))));
          await dropFiles(page, album, refused, { drop: true });
          await zone.waitFor({ state: "detached" });
          await nextFrame(page);
          assert.equal(await page.getByTestId("upload-panel").count(), 0);
          assert.ok(!(await exists(server, "/album/refused.txt")) && !(await exists(server, "/refused.txt")));
          await page.keyboard.press("Escape");
        },
      );

      await t.step(
        "a folder dragged in from the desktop (a native drag) uploads its tree, empty folders too",
        async () => {
          await Deno.mkdir(`${local}/desk/sub`, { recursive: true });
          await Deno.mkdir(`${local}/desk/empty`);
          await Deno.writeTextFile(`${local}/desk/a.txt`, "desk a");
          await Deno.writeTextFile(`${local}/desk/sub/b.txt`, "desk b");
          await Deno.writeTextFile(`${local}/loose.txt`, "loose");
          const box = (await page.getByTestId("listing").boundingBox())!;
          const at = { x: box.x + box.width / 2, y: box.y + box.height - 5 };
          const cdp = await page.context().newCDPSession(page);
          const data = { items: [], files: [`${local}/desk`, `${local}/loose.txt`], dragOperationsMask: 1 };
          await cdp.send("Input.dispatchDragEvent", { type: "dragEnter", ...at, data });
          await cdp.send("Input.dispatchDragEvent", { type: "dragOver", ...at, data });
          await page.getByTestId("upload-dropzone").waitFor();
          await throughPanel(
            page,
            gate,
            () => cdp.send("Input.dispatchDragEvent", { type: "drop", ...at, data }),
          );
          await cdp.detach();
          assert.equal(await Deno.readTextFile(`${server.t.root}/desk/a.txt`), "desk a");
          assert.equal(await Deno.readTextFile(`${server.t.root}/desk/sub/b.txt`), "desk b");
          assert.ok((await Deno.stat(`${server.t.root}/desk/empty`)).isDirectory);
          assert.equal(await Deno.readTextFile(`${server.t.root}/loose.txt`), "loose");
          await page.locator('[data-testid="listing"] [data-name="desk"]').waitFor();
        },
      );
    } finally {
      await close();
    }
  },
});
