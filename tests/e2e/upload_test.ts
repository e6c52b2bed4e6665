/**
 * Browser tests of uploads: the upload prompt (files and a folder) with the panel showing progress, cancelling one
 * upload and aborting all, both answers of the replace prompt, drops onto the listing and onto a folder row, the
 * create permission, an error toast, the mobile bar, and a reload in the middle of an upload that resumes.
 *
 * Chunk PATCHes pass through a gate the test opens chunk by chunk, so in-between states are observed without
 * timing guesses.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import type { Page } from "playwright-core";
import {
  hasChromium,
  launchBrowser,
  listedNames,
  newSession,
  openFiles,
  screenshot,
  setPrefs,
  startServer,
  writeFile,
} from "./_server.ts";
import type { E2eServer } from "./_server.ts";

const run = await hasChromium();
const CHUNK = 32 * 1024;

/** Holds tus PATCH requests until the test lets them through. */
class Gate {
  #open = true;
  #allowance = 0;
  #waiting: (() => void)[] = [];
  /** The next this many PATCHes fail as if the connection dropped. */
  failures = 0;
  #acked = 0;
  #ackWaiters: { n: number; resolve: () => void }[] = [];
  /** Counts a PATCH the server answered. */
  ack(): void {
    this.#acked++;
    this.#ackWaiters = this.#ackWaiters.filter((w) => w.n > this.#acked || (w.resolve(), false));
  }
  /** Resolves once `n` PATCHes (in all) were answered by the server. */
  acked(n: number): Promise<void> {
    if (this.#acked >= n) return Promise.resolve();
    return new Promise((resolve) => this.#ackWaiters.push({ n, resolve }));
  }
  get ackedCount(): number {
    return this.#acked;
  }
  pass(): Promise<void> {
    if (this.#open) return Promise.resolve();
    if (this.#allowance > 0) {
      this.#allowance--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
  hold(): void {
    this.#open = false;
    this.#allowance = 0;
  }
  allow(n: number): void {
    this.#allowance += n;
    while (this.#allowance > 0 && this.#waiting.length) {
      this.#allowance--;
      this.#waiting.shift()!();
    }
  }
  open(): void {
    this.#open = true;
    for (const resolve of this.#waiting.splice(0)) resolve();
  }
}

async function gated(page: Page): Promise<Gate> {
  const gate = new Gate();
  await page.route((url) => url.pathname.startsWith("/api/tus/"), async (route) => {
    if (route.request().method() === "PATCH") {
      await gate.pass();
      if (gate.failures > 0) {
        gate.failures--;
        await route.abort("connectionreset");
        return;
      }
    }
    // The page may have dropped the request meanwhile (a cancel, a reload).
    await route.continue().catch(() => {});
  });
  page.on("response", (r) => {
    if (r.request().method() === "PATCH" && new URL(r.url()).pathname.startsWith("/api/tus/")) gate.ack();
  });
  return gate;
}

function bytes(size: number, seed: number): Uint8Array {
  const b = new Uint8Array(size);
  for (let i = 0; i < size; i++) b[i] = (i * 131 + seed * 7 + (i >> 8)) & 0xff;
  return b;
}

function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

async function hashOf(server: E2eServer, path: string): Promise<string> {
  return sha256(await Deno.readFile(`${server.t.root}${path}`));
}

async function exists(server: E2eServer, path: string): Promise<boolean> {
  return await Deno.stat(`${server.t.root}${path}`).then(() => true, () => false);
}

async function settled(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="files"]:not([data-loading])');
}

async function waitForNames(page: Page, names: string[]): Promise<void> {
  await page.waitForFunction(
    (expected) =>
      [...document.querySelectorAll('[data-testid="listing"] [data-name]')]
        .map((e) => e.getAttribute("data-name")).join("/") === expected,
    names.join("/"),
  );
}

/** Opens the upload prompt from the header and picks `paths` (files, or one folder) in the file chooser. */
async function pick(
  page: Page,
  kind: "files" | "folder",
  paths: string | string[],
  options: { menu?: boolean } = {},
): Promise<void> {
  if (options.menu) {
    // On a phone the upload button sits in the "more" menu.
    await page.locator(".more-btn").click();
    await page.locator('.menu [data-action="upload"]').click();
  } else {
    await page.locator('.actions > [data-action="upload"]').click();
  }
  await page.getByTestId("upload-prompt").waitFor();
  const chooser = page.waitForEvent("filechooser");
  await page.getByTestId(`upload-${kind}`).click();
  await (await chooser).setFiles(paths);
}

async function panelGone(page: Page): Promise<void> {
  await page.getByTestId("upload-panel").waitFor({ state: "detached" });
}

/**
 * Dispatches a synthetic file drag (enter, over, then optionally drop) with a DataTransfer built in the page.
 * Chromium keeps `dropEffect` of a script-made DataTransfer at "none", so tests read the page's state instead.
 */
async function dropFiles(
  page: Page,
  selector: string,
  files: { name: string; text: string }[],
  options: { drop: boolean },
): Promise<void> {
  await page.evaluate(({ selector, files, drop }) => {
    const el = document.querySelector(selector)!;
    const dt = new DataTransfer();
    for (const f of files) dt.items.add(new File([f.text], f.name, { type: "text/plain" }));
    const fire = (type: string) =>
      el.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
    fire("dragenter");
    fire("dragover");
    if (drop) fire("drop");
  }, { selector, files, drop: options.drop });
}

/** Resolves after the next frame: any render the last events scheduled has happened. */
async function nextFrame(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
}

/** Runs `start` with chunks held, waits for the panel, lets everything through and waits until it is gone. */
async function throughPanel(page: Page, gate: Gate, start: () => Promise<unknown>): Promise<void> {
  gate.hold();
  await start();
  await page.getByTestId("upload-panel").waitFor();
  gate.open();
  await panelGone(page);
  // A whole folder ends in the success prompt (rendered with the panel's removal); close it to go on.
  const done = page.getByTestId("success-prompt");
  if (await done.count()) await done.getByRole("button", { name: "OK" }).click();
  await settled(page);
}

Deno.test({
  name: "upload: files and a folder with progress, cancel, abort, conflicts, drops, permissions, resume",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      settings: { tus: { chunkSize: CHUNK, retryCount: 1 } },
      users: [
        {
          username: "alice",
          perm: { create: true, rename: true, delete: true, download: true, modify: true },
        },
        { username: "bob", perm: { download: true } },
        { username: "carol", perm: { create: true, download: true } },
      ],
    });
    const local = await Deno.makeTempDir({ prefix: "fb-upload-e2e-" });
    const browser = await launchBrowser();
    try {
      for (const u of ["alice", "bob", "carol"]) await setPrefs(server, u, { viewMode: "list" });
      const data = {
        "one.bin": bytes(256 * 1024, 1),
        "two.bin": bytes(192 * 1024, 2),
        "three.txt": new TextEncoder().encode("three\n".repeat(20000)),
      };
      for (const [name, b] of Object.entries(data)) await Deno.writeFile(`${local}/${name}`, b);
      await Deno.mkdir(`${local}/album/inner`, { recursive: true });
      await Deno.writeFile(`${local}/album/cover.bin`, bytes(100 * 1024, 3));
      await Deno.writeTextFile(`${local}/album/inner/notes.txt`, "notes");

      const { page } = await newSession(browser, server, { as: "alice" });
      const gate = await gated(page);
      await openFiles(page, server, "/");

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
          assert.equal(await Deno.readTextFile(`${server.t.root}/clash.txt`), "new");
          await carolPage.close();
        },
      );

      await t.step("on a phone the panel is a bar that expands", async () => {
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
      await browser.close();
      await server.close();
      await Deno.remove(local, { recursive: true });
    }
  },
});
