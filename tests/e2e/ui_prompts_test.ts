/**
 * Browser tests: conflict prompts name the files and the folder, start on the safe choice and offer Keep both,
 * Skip and Replace; deleting a folder says how many items it holds.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  hasChromium,
  launchBrowser,
  newSession,
  openFiles,
  screenshot,
  setPrefs,
  startServer,
  writeFile,
} from "./_server.ts";
import type { E2eServer } from "./_server.ts";

const run = await hasChromium();

/** Visible text without the bidi isolation marks around names. */
async function text(page: Page, testId: string): Promise<string> {
  return (await page.getByTestId(testId).innerText()).replace(/[\u2066-\u2069]/g, "");
}

function row(page: Page, name: string) {
  return page.locator(`[data-testid="listing"] [data-name="${name}"]`);
}

async function copyTo(page: Page, names: string[], folder: string): Promise<void> {
  await row(page, names[0]).click();
  for (const n of names.slice(1)) await row(page, n).click({ modifiers: ["Control"] });
  const copy = page.locator('[data-action="copy"]');
  if (!(await copy.isVisible())) await page.locator(".more-btn").click();
  await page.locator('[data-action="copy"]:visible').click();
  await page.getByTestId("folder-picker").locator(`[data-name="${folder}"]`).click();
  await page.getByTestId("transfer-confirm").click();
  await page.getByTestId("replace-rename").waitFor();
}

async function read(server: E2eServer, path: string): Promise<string> {
  return await Deno.readTextFile(`${server.t.root}${path}`);
}

Deno.test({
  name:
    "ui prompts: conflicts name files and folder with Keep both / Skip / Replace; folder delete counts items",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{
        username: "alice",
        perm: { create: true, rename: true, delete: true, modify: true, download: true },
      }],
    });
    const browser = await launchBrowser();
    try {
      await writeFile(server, "/notes.txt", "root notes");
      await writeFile(server, "/plan.txt", "root plan");
      await writeFile(server, "/new.txt", "root new");
      await writeFile(server, "/Sandbox/notes.txt", "sandbox notes");
      await writeFile(server, "/Sandbox/plan.txt", "sandbox plan");
      await writeFile(server, "/Sandbox/x.txt", "x");
      await setPrefs(server, "alice", { viewMode: "list", redirectAfterCopyMove: false });
      const { page } = await newSession(browser, server, { as: "alice" });
      await openFiles(page, server, "/");

      await t.step("one conflict names the file and the folder; focus on Keep both", async () => {
        await copyTo(page, ["notes.txt"], "Sandbox");
        assert.match(await text(page, "conflict-message"), /notes\.txt already exists in Sandbox/);
        await page.waitForFunction(() =>
          document.activeElement?.getAttribute("data-testid") === "conflict-rename"
        );
        const labels = await page.getByTestId("replace-rename").locator("button").allInnerTexts();
        assert.deepEqual(labels, ["Cancel", "Keep both", "Replace"]);
        await screenshot(page, "ui_prompts_conflict_light");
        await page.keyboard.press("Enter");
        await page.getByTestId("replace-rename").waitFor({ state: "detached" });
        await page.waitForFunction(() => true);
        for (
          let i = 0;
          i < 50 && !(await Deno.stat(`${server.t.root}/Sandbox/notes(1).txt`).catch(() => null));
          i++
        ) {
          await new Promise((r) => setTimeout(r, 100));
        }
        assert.equal(await read(server, "/Sandbox/notes(1).txt"), "root notes");
        assert.equal(await read(server, "/Sandbox/notes.txt"), "sandbox notes", "Enter did not replace");
      });

      await t.step("several conflicts are listed; Skip copies only the others", async () => {
        await openFiles(page, server, "/");
        await copyTo(page, ["new.txt", "notes.txt", "plan.txt"], "Sandbox");
        assert.match(await text(page, "conflict-message"), /These items already exist in Sandbox \(2\)/);
        assert.deepEqual(await page.getByTestId("conflict-list").locator("li").allInnerTexts(), [
          "notes.txt",
          "plan.txt",
        ]);
        await screenshot(page, "ui_prompts_conflict_many_light");
        await page.getByTestId("conflict-skip").click();
        for (
          let i = 0;
          i < 50 && !(await Deno.stat(`${server.t.root}/Sandbox/new.txt`).catch(() => null));
          i++
        ) {
          await new Promise((r) => setTimeout(r, 100));
        }
        assert.equal(await read(server, "/Sandbox/new.txt"), "root new");
        assert.equal(await read(server, "/Sandbox/plan.txt"), "sandbox plan");
        assert.equal(await read(server, "/Sandbox/notes.txt"), "sandbox notes");
        assert.ok(!(await Deno.stat(`${server.t.root}/Sandbox/plan(1).txt`).catch(() => null)));
      });

      await t.step("deleting a non-empty folder says how many items it holds", async () => {
        await openFiles(page, server, "/");
        await row(page, "Sandbox").click();
        await page.keyboard.press("Delete");
        await page.waitForFunction(() =>
          /5 items/.test(document.querySelector('[data-testid="delete"]')?.textContent ?? "")
        );
        assert.match(
          await text(page, "delete"),
          /Delete the folder Sandbox and everything in it \(5 items\)\?/,
        );
        await screenshot(page, "ui_prompts_delete_light");
        await page.keyboard.press("Escape");
      });

      await t.step("screenshots: dark, phone, Arabic", async () => {
        for (
          const [name, options] of [
            ["ui_prompts_conflict_dark", { colorScheme: "dark" as const }],
            ["ui_prompts_conflict_phone", { viewport: { width: 390, height: 844 } }],
            ["ui_prompts_conflict_ar", {}],
          ] as const
        ) {
          if (name.endsWith("_ar")) await setPrefs(server, "alice", { locale: "ar" });
          const s = await newSession(browser, server, { as: "alice", ...options });
          await openFiles(s.page, server, "/");
          await copyTo(s.page, ["new.txt", "notes.txt"], "Sandbox");
          await screenshot(s.page, name);
          await s.context.close();
        }
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
