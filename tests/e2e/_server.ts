/**
 * Browser-test harness: the real app on port 0 (temp root, in-memory KV, users with tokens) and one Chromium per
 * test file. In CI a missing Chromium fails the tests instead of skipping them.
 */
import { chromium } from "playwright-core";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { build } from "../../framework/build.ts";
import { testApp } from "../_helpers.ts";
import type { TestApp, TestAppOptions } from "../_helpers.ts";

/**
 * Debian's Chromium (Playwright's own browser download cannot work on these machines): its headless shell
 * (package chromium-headless-shell, the same Blink without the browser's own UI) when installed, which needs
 * about 40% less CPU per test than the full browser in headless mode; else the full browser. `E2E_CHROMIUM`
 * names another binary.
 */
export const CHROMIUM = Deno.env.get("E2E_CHROMIUM") ?? pickChromium();

function pickChromium(): string {
  const shell = "/usr/bin/chromium-headless-shell";
  try {
    Deno.statSync(shell);
    return shell;
  } catch {
    return "/usr/bin/chromium";
  }
}

/** Where screenshots go (git-ignored). */
export const ARTIFACTS = new URL("../_artifacts/", import.meta.url).pathname;

/** True when the browser tests can run here; in CI a missing browser is an error, not a skip. */
export async function hasChromium(): Promise<boolean> {
  const found = await Deno.stat(CHROMIUM).then(() => true, () => false);
  if (!found && Deno.env.get("CI") === "true") {
    throw new Error(`${CHROMIUM} is missing: browser tests must run in CI`);
  }
  return found;
}

/** A running app and its address. */
export interface E2eServer {
  url: string;
  t: TestApp;
  close(): Promise<void>;
}

/** Builds the islands if stale, then serves a fresh test app on a free port. */
export async function startServer(options: TestAppOptions = {}): Promise<E2eServer> {
  await build();
  const t = await testApp(options);
  const ac = new AbortController();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen() {} },
    t.app.fetch,
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    t,
    async close() {
      ac.abort();
      await server.finished;
      await t.close();
    },
  };
}

/** Launches Chromium with the flags that work on these machines. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Options of newSession. */
export interface SessionOptions {
  /** Log in as this user (cookie + storage), or stay anonymous. */
  as?: string;
  viewport?: { width: number; height: number };
  locale?: string;
  colorScheme?: "light" | "dark";
  /** IANA time zone of the browser (default: the machine's). */
  timezoneId?: string;
  /** A touch screen (taps, long presses). */
  hasTouch?: boolean;
  /** A phone: the meta viewport counts and touch events are on. */
  isMobile?: boolean;
}

/** A browser context, logged in as a test user without going through the form. */
export async function newSession(browser: Browser, server: E2eServer, options: SessionOptions = {}): Promise<
  { context: BrowserContext; page: Page }
> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    locale: options.locale ?? "en-US",
    colorScheme: options.colorScheme ?? "light",
    timezoneId: options.timezoneId,
    hasTouch: options.hasTouch,
    isMobile: options.isMobile,
    acceptDownloads: true,
  });
  if (options.as) {
    const token = server.t.tokens[options.as];
    await context.addCookies([{ name: "auth", value: token, url: `${server.url}/`, sameSite: "Strict" }]);
    await context.addInitScript((jwt: string) => {
      // Some frames have no storage (the PDF viewer's document): skip them.
      try {
        if (location.protocol.startsWith("http")) localStorage?.setItem("jwt", jwt);
      } catch {
        // Storage access denied in this frame.
      }
    }, token);
  }
  const page = await context.newPage();
  page.on("pageerror", (err) => {
    throw err;
  });
  return { context, page };
}

/** Waits until the named island has hydrated. */
export async function hydrated(page: Page, island: string): Promise<void> {
  await page.waitForSelector(`[data-island-root="${island}"][data-hydrated]`, { state: "attached" });
}

/** Waits until every island on the page is hydrated. */
export async function allHydrated(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll("[data-island-root]")].every((el) => el.hasAttribute("data-hydrated"))
  );
}

/** Opens the files page at a path and waits for the listing (or the given state) to be ready. */
export async function openFiles(page: Page, server: E2eServer, path = "/"): Promise<void> {
  await page.goto(`${server.url}/files${path}`);
  await hydrated(page, "FileBrowser");
  // Header, Sidebar and the other islands hydrate separately: a click before that would be lost.
  await allHydrated(page);
  await page.waitForSelector('[data-testid="files"]:not([data-loading])');
}

/** Writes a file (and its parents) under the test root. */
export async function writeFile(server: E2eServer, path: string, content = "hello"): Promise<void> {
  const full = `${server.t.root}${path}`;
  await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(full, content);
}

/** Screenshot into tests/_artifacts/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  const path = `${ARTIFACTS}${name}.png`;
  await page.screenshot({ path, fullPage: false });
  return path;
}

/** Saves preferences of a test user through the API (as that user). */
export async function setPrefs(
  server: E2eServer,
  username: string,
  data: Record<string, unknown>,
): Promise<void> {
  const id = server.t.users[username].id;
  const res = await server.t.request(`/api/users/${id}`, {
    method: "PUT",
    as: username,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ what: "user", which: Object.keys(data), data: { id, ...data } }),
  });
  await res.body?.cancel();
  if (res.status !== 200) throw new Error(`setPrefs ${username}: ${res.status}`);
}

/** The names shown by the listing, in order (only rendered rows). */
export function listedNames(page: Page): Promise<string[]> {
  return page.$$eval(
    '[data-testid="listing"] [role="option"]',
    (els) => els.map((e) => e.getAttribute("data-name")!),
  );
}
