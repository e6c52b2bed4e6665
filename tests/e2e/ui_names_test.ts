/**
 * Browser tests: the rename, new-file and new-folder prompts refuse names the server would refuse (or read as a
 * path) under the field, with the button disabled and no request sent.
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

const run = await hasChromium();

/** Name typed, and the message expected under the field. */
const BAD: [string, RegExp][] = [
  ["a/b.json", /cannot contain \/ or \\/],
  ["2025/Q1/reports", /cannot contain \/ or \\/],
  ["a\\b", /cannot contain \/ or \\/],
  [".", /cannot be names/],
  ["..", /cannot be names/],
  ["bell\u0007.txt", /control character/],
  ["del\u007f", /control character/],
  ["é".repeat(128), /longer than 255 bytes/],
  ["x".repeat(256), /longer than 255 bytes/],
];

/** Fills the prompt's field with `name` and checks it is refused before any request. */
async function refused(
  page: Page,
  testId: string,
  name: string,
  message: RegExp,
  sent: string[],
): Promise<void> {
  const prompt = page.getByTestId(testId);
  const input = prompt.locator("input");
  await input.fill(name);
  const problem = prompt.locator(".field-problem");
  await problem.waitFor();
  assert.match(await problem.innerText(), message, JSON.stringify(name));
  assert.equal(await input.getAttribute("aria-invalid"), "true");
  assert.equal(await input.getAttribute("aria-describedby"), await problem.getAttribute("id"));
  assert.equal(await prompt.locator('button[type="submit"]').isDisabled(), true, JSON.stringify(name));
  await input.press("Enter");
  await prompt.waitFor();
  assert.deepEqual(sent, [], `no request for ${JSON.stringify(name)}`);
}

Deno.test({
  name: "ui names: rename, new file and new folder refuse separators, dots, controls and long names inline",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [{ username: "alice", perm: { create: true, rename: true, delete: true, modify: true } }],
    });
    const browser = await launchBrowser();
    try {
      await writeFile(server, "/notes.txt", "n");
      await setPrefs(server, "alice", { viewMode: "list" });
      const { page } = await newSession(browser, server, { as: "alice" });
      const sent: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes("/api/resources") && r.method() !== "GET") sent.push(`${r.method()} ${r.url()}`);
      });
      await openFiles(page, server, "/");

      await t.step("new folder", async () => {
        await page.getByTestId("sidebar").getByText("New folder").click();
        for (const [name, message] of BAD) await refused(page, "new-dir", name, message, sent);
        await screenshot(page, "ui_names_light");
        await page.keyboard.press("Escape");
      });

      await t.step("new file", async () => {
        await page.getByTestId("sidebar").getByText("New file").click();
        for (const [name, message] of BAD) await refused(page, "new-file", name, message, sent);
        await page.keyboard.press("Escape");
      });

      await t.step("rename", async () => {
        await page.locator('[data-testid="listing"] [data-name="notes.txt"]').click();
        await page.keyboard.press("F2");
        for (const [name, message] of BAD) await refused(page, "rename", name, message, sent);
        await page.keyboard.press("Escape");
      });

      await t.step("a good name clears the message and is sent", async () => {
        await page.getByTestId("sidebar").getByText("New folder").click();
        const prompt = page.getByTestId("new-dir");
        await prompt.locator("input").fill("a/b");
        await prompt.locator(".field-problem").waitFor();
        await prompt.locator("input").fill("2025 Q1");
        await prompt.locator(".field-problem").waitFor({ state: "detached" });
        assert.equal(await prompt.locator("input").getAttribute("aria-invalid"), null);
        await page.keyboard.press("Enter");
        await page.waitForURL(`${server.url}/files/2025%20Q1/`);
        assert.equal(sent.length, 1);
        assert.ok((await Deno.stat(`${server.t.root}/2025 Q1`)).isDirectory);
        const entries = [];
        for await (const e of Deno.readDir(server.t.root)) entries.push(e.name);
        assert.deepEqual(entries.sort(), ["2025 Q1", "notes.txt"]);
      });

      await t.step("screenshots: dark, phone, Arabic", async () => {
        for (
          const [name, options] of [
            ["ui_names_dark", { colorScheme: "dark" as const }],
            ["ui_names_phone", { viewport: { width: 390, height: 844 } }],
            ["ui_names_ar", { locale: "ar" }],
          ] as const
        ) {
          if (name === "ui_names_ar") await setPrefs(server, "alice", { locale: "ar" });
          const s = await newSession(browser, server, { as: "alice", ...options });
          await openFiles(s.page, server, "/");
          await s.page.locator('[data-testid="listing"] [data-name="notes.txt"]').click();
          await s.page.keyboard.press("F2");
          await s.page.getByTestId("rename").locator("input").fill("a/b.json");
          await s.page.getByTestId("rename").locator(".field-problem").waitFor();
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
