/**
 * Browser tests of the shell panel: opened from the header (the terminal loads only then), `ls` output in the
 * terminal, a refused command, history with ArrowUp, Ctrl+C stopping `sleep 30`, the local `clear` and `exit`,
 * resizing by dragging the divider (remembered after a reload), the working folder following client-side
 * navigation, stderr with the exit status, ANSI colours, right-to-left pages, the panel absent without the execute
 * permission or with exec off, dark theme and the phone layout.
 * Screenshots go to tests/_artifacts/shell-*.png.
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

const USERS = [
  {
    username: "runner",
    perm: { create: true, download: true, execute: true },
    commands: ["ls", "pwd", "sleep", "printf"],
  },
  { username: "viewer", perm: { download: true }, commands: ["ls"] },
];

/** The terminal's visible text. */
function termText(page: Page): Promise<string> {
  return page.locator(".shell-term .xterm-rows").innerText();
}

async function waitForText(page: Page, re: RegExp, what = re.source): Promise<string> {
  try {
    await page.waitForFunction(
      ([src, flags]) =>
        new RegExp(src, flags).test(
          (document.querySelector(".shell-term .xterm-rows") as HTMLElement | null)?.innerText ?? "",
        ),
      [re.source, re.flags] as const,
      { timeout: 20_000 },
    );
  } catch (err) {
    throw new Error(`terminal never showed ${what}; it shows:\n${await termText(page).catch(() => "?")}`, {
      cause: err,
    });
  }
  return await termText(page);
}

/** Opens the panel with the header button and waits until the terminal is ready. */
async function openShell(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Toggle shell" }).click();
  await page.locator('[data-testid="shell"][data-ready]').waitFor();
}

/** Types a command line and presses Enter; waits until it finished when `wait` is set. */
async function runLine(page: Page, line: string, wait = true): Promise<void> {
  const input = page.getByTestId("shell-input");
  await input.fill(line);
  await input.press("Enter");
  if (wait) await page.locator('[data-testid="shell"]:not([data-running])').waitFor({ timeout: 20_000 });
}

async function clearTerm(page: Page): Promise<void> {
  await runLine(page, "clear");
  await page.waitForFunction(() => !document.querySelector(".shell-term .xterm-rows")?.textContent?.trim());
}

async function fixture(server: E2eServer): Promise<void> {
  await writeFile(server, "/alpha.txt", "a");
  await writeFile(server, "/beta.md", "b");
  await writeFile(server, "/sub/inner-file.txt", "c");
  await writeFile(server, "/sub/deeper/x.txt", "d");
}

Deno.test({
  name: "shell: panel, commands, history, Ctrl+C, resize, navigation, permissions, themes and mobile",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({ config: { enableExec: true }, users: USERS });
    const browser = await launchBrowser();
    try {
      await fixture(server);
      const { page } = await newSession(browser, server, { as: "runner" });
      const scripts: string[] = [];
      page.on("request", (r) => scripts.push(new URL(r.url()).pathname));
      const consoleErrors: string[] = [];
      page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));

      await t.step("the terminal loads only when the panel opens; ls lists the folder", async () => {
        await openFiles(page, server, "/");
        assert.equal(await page.getByTestId("shell").count(), 0);
        assert.ok(!scripts.some((p) => /xterm|terminal-/.test(p)), scripts.join("\n"));
        const toggle = page.getByRole("button", { name: "Toggle shell" });
        assert.equal(await toggle.getAttribute("aria-pressed"), "false");
        await openShell(page);
        assert.equal(await toggle.getAttribute("aria-pressed"), "true");
        assert.ok(scripts.some((p) => p.endsWith("/_islands/xterm.css")), "xterm.css loaded");
        assert.ok(scripts.some((p) => /\/_islands\/terminal-[\w-]+\.js$/.test(p)), "terminal chunk loaded");
        // The prompt line has the focus and names the folder.
        assert.equal(
          await page.evaluate(() => document.activeElement?.getAttribute("data-testid")),
          "shell-input",
        );
        assert.equal(await page.getByTestId("shell-input").getAttribute("aria-label"), "Command (runs in /)");
        await runLine(page, "ls");
        const text = await waitForText(page, /beta\.md/);
        assert.match(text, /\/ \$ ls/);
        assert.match(text, /alpha\.txt/);
        assert.match(text, /sub/);
        await screenshot(page, "shell-light");
      });

      await t.step("a refused command shows the refusal", async () => {
        await runLine(page, "whoami");
        await waitForText(page, /Command not allowed\./);
      });

      await t.step(
        "stderr and a non-zero exit status are shown; ANSI colours are drawn, not printed",
        async () => {
          await clearTerm(page);
          await runLine(page, "ls no-such-file");
          await waitForText(page, /No such file or directory/);
          await waitForText(page, /Exit status 2/);
          await runLine(page, "printf '\\033[31mred\\033[0m plain\\n'");
          const text = await waitForText(page, /red plain/);
          // The output line holds the words only (the echoed command line shows the escapes as typed).
          assert.ok(text.split("\n").some((l) => l.trim() === "red plain"), text);
          const red = await page.$$eval(
            ".shell-term .xterm-rows span",
            (els) => els.filter((e) => e.textContent === "red").map((e) => e.className),
          );
          assert.ok(red.some((c) => /xterm-fg-1\b/.test(c)), JSON.stringify(red));
        },
      );

      await t.step("ArrowUp/ArrowDown browse the history; Enter runs the recalled command", async () => {
        await runLine(page, "pwd");
        const input = page.getByTestId("shell-input");
        await input.fill("draft");
        await input.press("ArrowUp");
        assert.equal(await input.inputValue(), "pwd");
        await input.press("ArrowUp");
        assert.equal(await input.inputValue(), "printf '\\033[31mred\\033[0m plain\\n'");
        await input.press("ArrowUp");
        assert.equal(await input.inputValue(), "ls no-such-file");
        await input.press("ArrowUp");
        assert.equal(await input.inputValue(), "whoami");
        await input.press("ArrowDown");
        await input.press("ArrowDown");
        await input.press("ArrowDown");
        await input.press("ArrowDown");
        assert.equal(await input.inputValue(), "draft");
        await input.press("ArrowUp");
        await clearTerm(page);
        await input.press("ArrowUp");
        assert.equal(await input.inputValue(), "pwd");
        await input.press("Enter");
        await page.locator('[data-testid="shell"]:not([data-running])').waitFor();
        const text = await waitForText(
          page,
          new RegExp(`${server.t.root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
        );
        assert.match(text, /\/ \$ pwd/);
      });

      await t.step("Ctrl+C stops sleep 30; the running command is shown meanwhile", async () => {
        await clearTerm(page);
        await runLine(page, "sleep 30", false);
        await page.locator('[data-testid="shell"][data-running]').waitFor();
        assert.equal(await page.getByTestId("shell-status").innerText(), "Running: sleep 30");
        assert.equal(await page.getByTestId("shell-input").getAttribute("readonly"), "");
        await screenshot(page, "shell-running");
        const started = Date.now();
        await page.getByTestId("shell-input").press("Control+c");
        await page.locator('[data-testid="shell"]:not([data-running])').waitFor({ timeout: 10_000 });
        assert.ok(Date.now() - started < 10_000);
        await waitForText(page, /\^C/);
        assert.equal(await page.getByTestId("shell-status").innerText(), "");
        // The line is usable again at once.
        await runLine(page, "ls");
        await waitForText(page, /alpha\.txt/);
      });

      await t.step("the stop button interrupts too", async () => {
        await clearTerm(page);
        await runLine(page, "sleep 30", false);
        await page.getByRole("button", { name: "Stop the command (Ctrl+C)" }).click();
        await page.locator('[data-testid="shell"]:not([data-running])').waitFor({ timeout: 10_000 });
        await waitForText(page, /\^C/);
      });

      await t.step(
        "keys typed in the terminal go to the prompt line; Ctrl+C there stops a command",
        async () => {
          await clearTerm(page);
          await runLine(page, "sleep 30", false);
          await page.locator('[data-testid="shell"][data-running]').waitFor();
          await page.locator(".shell-term .xterm-screen").click();
          await page.keyboard.press("Control+c");
          await page.locator('[data-testid="shell"]:not([data-running])').waitFor({ timeout: 10_000 });
          await page.locator(".shell-term .xterm-screen").click();
          await page.keyboard.type("pw");
          const input = page.getByTestId("shell-input");
          assert.equal(await input.inputValue(), "pw");
          assert.equal(
            await page.evaluate(() => document.activeElement?.getAttribute("data-testid")),
            "shell-input",
          );
          await page.keyboard.type("d");
          await page.keyboard.press("Enter");
          await waitForText(page, /\/ \$ pwd\n/);
        },
      );

      await t.step("the divider resizes the panel; the height is remembered after a reload", async () => {
        const panel = page.getByTestId("shell");
        const before = (await panel.boundingBox())!;
        const grip = (await page.getByTestId("shell-divider").boundingBox())!;
        const x = grip.x + grip.width / 2;
        const y = grip.y + grip.height / 2;
        await page.mouse.move(x, y);
        await page.mouse.down();
        await page.mouse.move(x, y - 60, { steps: 4 });
        await page.mouse.move(x, y - 120, { steps: 4 });
        await page.mouse.up();
        const after = (await panel.boundingBox())!;
        assert.ok(Math.abs(after.height - (before.height + 120)) <= 4, `${before.height} -> ${after.height}`);
        // The page makes room for the panel.
        const pad = await page.evaluate(() =>
          getComputedStyle(document.querySelector(".main")!).paddingBottom
        );
        assert.ok(parseFloat(pad) >= after.height, pad);
        // Keyboard: ArrowDown on the focused divider shrinks it by one step.
        await page.getByTestId("shell-divider").focus();
        await page.keyboard.press("ArrowDown");
        const keyed = (await panel.boundingBox())!;
        assert.ok(Math.abs(keyed.height - (after.height - 24)) <= 2, `${after.height} -> ${keyed.height}`);
        assert.equal(
          await page.getByTestId("shell-divider").getAttribute("aria-valuenow"),
          String(keyed.height),
        );

        await page.reload();
        await page.locator('[data-island-root="ShellPanel"][data-hydrated]').waitFor({ state: "attached" });
        await openShell(page);
        const reloaded = (await page.getByTestId("shell").boundingBox())!;
        assert.ok(Math.abs(reloaded.height - keyed.height) <= 2, `${keyed.height} vs ${reloaded.height}`);
        // The history survived the reload too.
        await page.getByTestId("shell-input").press("ArrowUp");
        assert.equal(await page.getByTestId("shell-input").inputValue(), "pwd");
      });

      await t.step("navigating to a sub-folder keeps the panel; pwd and ls run there", async () => {
        await page.getByTestId("shell-input").fill("");
        await clearTerm(page);
        await page.locator('[data-testid="listing"] [data-name="sub"]').dblclick();
        await page.waitForFunction(() =>
          document.querySelector('[data-testid="files"]')?.getAttribute("data-path") === "/sub/"
        );
        assert.equal(await page.getByTestId("shell").isVisible(), true);
        const input = page.getByTestId("shell-input");
        assert.equal(await input.getAttribute("aria-label"), "Command (runs in /sub/)");
        await runLine(page, "pwd");
        await waitForText(page, /\/sub\n/);
        await runLine(page, "ls");
        const text = await waitForText(page, /inner-file\.txt/);
        assert.match(text, /\/sub\/ \$ ls/);
        assert.match(text, /deeper/);
        assert.doesNotMatch(text, /alpha\.txt/);
      });

      await t.step("clear empties the terminal; exit and the close button hide the panel", async () => {
        await runLine(page, "clear");
        await page.waitForFunction(() =>
          !document.querySelector(".shell-term .xterm-rows")?.textContent?.trim()
        );
        await runLine(page, "exit", false);
        await page.getByTestId("shell").waitFor({ state: "hidden" });
        const toggle = page.getByRole("button", { name: "Toggle shell" });
        assert.equal(await toggle.getAttribute("aria-pressed"), "false");
        assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-action")), "shell");
        await page.keyboard.press("Enter");
        await page.getByTestId("shell").waitFor();
        await page.getByRole("button", { name: "Close shell" }).click();
        await page.getByTestId("shell").waitFor({ state: "hidden" });
        const pad = await page.evaluate(() =>
          getComputedStyle(document.querySelector(".main")!).paddingBottom
        );
        assert.ok(parseFloat(pad) < 100, pad);
      });

      await t.step("no console errors on the way (CSP, xterm)", () => {
        assert.deepEqual(consoleErrors, []);
      });

      await t.step("dark theme: the terminal is drawn dark", async () => {
        const { page: dark } = await newSession(browser, server, { as: "runner", colorScheme: "dark" });
        await openFiles(dark, server, "/");
        await openShell(dark);
        await runLine(dark, "ls");
        await waitForText(dark, /beta\.md/);
        const bg = await dark.evaluate(() =>
          getComputedStyle(document.querySelector(".shell-term .xterm-viewport")!).backgroundColor
        );
        const [r, g, b] = bg.match(/\d+/g)!.map(Number);
        assert.ok(r + g + b < 150, bg);
        await screenshot(dark, "shell-dark");
        await dark.close();
      });

      await t.step(
        "right to left (Arabic): the panel sits beside the sidebar, the terminal stays ltr",
        async () => {
          await setPrefs(server, "runner", { locale: "ar" });
          const { page: ar } = await newSession(browser, server, { as: "runner" });
          await openFiles(ar, server, "/");
          await ar.locator('[data-action="shell"]').click();
          await ar.locator('[data-testid="shell"][data-ready]').waitFor();
          await runLine(ar, "ls");
          await waitForText(ar, /beta\.md/);
          await screenshot(ar, "shell-rtl");
          const box = (await ar.getByTestId("shell").boundingBox())!;
          assert.ok(box.x === 0 && box.width === 1280 - 240, JSON.stringify(box));
          assert.equal(await ar.locator(".shell-term").getAttribute("dir"), "ltr");
          assert.equal(await ar.getByTestId("shell-input").getAttribute("aria-label"), "أمر (يُنفَّذ في /)");
          await ar.close();
          await setPrefs(server, "runner", { locale: "en" });
        },
      );

      await t.step(
        "phone: the toggle is in the more menu; the panel is full width with a sensible height",
        async () => {
          const { page: phone } = await newSession(browser, server, {
            as: "runner",
            viewport: { width: 390, height: 800 },
          });
          await openFiles(phone, server, "/");
          await phone.getByRole("button", { name: "More" }).click();
          await phone.getByRole("menuitemcheckbox", { name: "Toggle shell" }).click();
          await phone.locator('[data-testid="shell"][data-ready]').waitFor();
          await runLine(phone, "ls");
          await waitForText(phone, /beta\.md/);
          const box = (await phone.getByTestId("shell").boundingBox())!;
          assert.ok(box.x === 0 && box.width === 390, JSON.stringify(box));
          assert.ok(box.height >= 150 && box.height <= 800 - 96, JSON.stringify(box));
          assert.ok(box.y + box.height <= 800 + 1, JSON.stringify(box));
          const inputBox = (await phone.getByTestId("shell-input").boundingBox())!;
          assert.ok(inputBox.height >= 40, JSON.stringify(inputBox));
          await screenshot(phone, "shell-mobile");
          await phone.close();
        },
      );

      await t.step("no panel and no toggle without the execute permission", async () => {
        const { page: viewer } = await newSession(browser, server, { as: "viewer" });
        await openFiles(viewer, server, "/");
        assert.equal(await viewer.locator('[data-action="shell"]').count(), 0);
        assert.equal(await viewer.locator('[data-island-root="ShellPanel"]').count(), 0);
        await viewer.close();
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});

Deno.test({
  name: "shell: no panel and no toggle when command execution is off",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startServer({ config: { enableExec: false }, users: USERS });
    const browser = await launchBrowser();
    try {
      const { page } = await newSession(browser, server, { as: "runner" });
      await openFiles(page, server, "/");
      assert.equal(await page.locator('[data-action="shell"]').count(), 0);
      assert.equal(await page.locator('[data-island-root="ShellPanel"]').count(), 0);
      assert.equal(await page.locator('link[href*="shell.css"]').count(), 0);
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
