/** Helpers of the upload browser tests: a gate on tus chunks, test files, pickers, drops, and the shared setup. */
import { createHash } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, newSession, openFiles, setPrefs, startServer } from "./_server.ts";
import type { E2eServer } from "./_server.ts";

export const CHUNK = 32 * 1024;

/** Holds tus PATCH requests until the test lets them through. */
export class Gate {
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

export async function gated(page: Page): Promise<Gate> {
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

export function bytes(size: number, seed: number): Uint8Array {
  const b = new Uint8Array(size);
  for (let i = 0; i < size; i++) b[i] = (i * 131 + seed * 7 + (i >> 8)) & 0xff;
  return b;
}

export function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

export async function hashOf(server: E2eServer, path: string): Promise<string> {
  return sha256(await Deno.readFile(`${server.t.root}${path}`));
}

export async function exists(server: E2eServer, path: string): Promise<boolean> {
  return await Deno.stat(`${server.t.root}${path}`).then(() => true, () => false);
}

export async function settled(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="files"]:not([data-loading])');
}

export async function waitForNames(page: Page, names: string[]): Promise<void> {
  await page.waitForFunction(
    (expected) =>
      [...document.querySelectorAll('[data-testid="listing"] [data-name]')]
        .map((e) => e.getAttribute("data-name")).join("/") === expected,
    names.join("/"),
  );
}

/** Opens the upload prompt from the header and picks `paths` (files, or one folder) in the file chooser. */
export async function pick(
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

export async function panelGone(page: Page): Promise<void> {
  await page.getByTestId("upload-panel").waitFor({ state: "detached" });
}

/**
 * Dispatches a synthetic file drag (enter, over, then optionally drop) with a DataTransfer built in the page.
 * Chromium keeps `dropEffect` of a script-made DataTransfer at "none", so tests read the page's state instead.
 */
export async function dropFiles(
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
export async function nextFrame(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
}

/** Runs `start` with chunks held, waits for the panel, lets everything through and waits until it is gone. */
export async function throughPanel(page: Page, gate: Gate, start: () => Promise<unknown>): Promise<void> {
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

/** What the upload tests share: a server with alice (may upload), bob (may not) and carol (no modify). */
export interface UploadSession {
  server: E2eServer;
  browser: Browser;
  /** A local folder with the files the tests pick: one.bin, two.bin, three.txt and the folder album/. */
  local: string;
  data: Record<string, Uint8Array>;
  /** alice's page on the files root, its chunks passing through `gate`. */
  page: Page;
  gate: Gate;
  close(): Promise<void>;
}

/** Starts the server and the browser, writes the local files and opens alice's files page. */
export async function openUploadSession(): Promise<UploadSession> {
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
  const close = async () => {
    await browser.close();
    await server.close();
    await Deno.remove(local, { recursive: true });
  };
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
    return { server, browser, local, data, page, gate, close };
  } catch (err) {
    await close();
    throw err;
  }
}
