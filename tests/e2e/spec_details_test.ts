/** Browser tests of smaller details: breadcrumbs, error views, sidebar footer and help, error toasts, share icon. */
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { hasChromium, launchBrowser, newSession, openFiles, startServer, writeFile } from "./_server.ts";
import type { E2eServer } from "./_server.ts";

const run = await hasChromium();

Deno.test({
  name: "details: breadcrumbs, error views, footer links, help card, error toasts, share info icon",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const links = {
      issuesUrl: "https://tracker.example/app/issues/new",
      projectUrl: "https://project.example/",
    };
    const server: E2eServer = await startServer({
      users: [{ username: "alice", perm: { create: true, share: true, download: true } }],
      config: links,
    });
    const closed: E2eServer = await startServer({
      users: [{ username: "alice", perm: { create: true } }],
      config: links,
      settings: {
        branding: {
          name: "",
          disableExternal: true,
          disableUsedPercentage: true,
          theme: "",
          files: "",
          color: "",
        },
      } as never,
    });
    const browser: Browser = await launchBrowser();
    try {
      await writeFile(server, "/a/b/c/d/50% off/f/readme.txt", "hello");
      const { context, page } = await newSession(browser, server, { as: "alice" });

      await t.step("a deep folder shows the last 4 segments after an ellipsis, names decoded", async () => {
        await openFiles(page, server, "/a/b/c/d/50%25%20off/f/");
        const crumbs = page.locator(".breadcrumbs li");
        await page.locator(".breadcrumbs .ellipsis").waitFor();
        const texts = (await crumbs.allInnerTexts()).map((x) => x.trim()).filter(Boolean);
        assert.deepEqual(texts, ["…", "c", "d", "50% off", "f"]);
        assert.equal(await page.locator('.breadcrumbs a[href="/files/a/b/c/"]').count(), 1);
      });

      await t.step("a missing path shows the not-found view", async () => {
        await page.goto(`${server.url}/files/no/such/folder/`);
        const view = page.getByTestId("error-view");
        await view.waitFor();
        assert.equal(await view.getAttribute("data-status"), "404");
        assert.match(await view.innerText(), /This location can't be reached\./);
      });

      await t.step("/500 shows the internal-error screen", async () => {
        await page.goto(`${server.url}/500`);
        assert.match(await page.getByTestId("error-view").innerText(), /Something really went wrong\./);
      });

      await t.step(
        "the footer links the product name to the project site and shows the version",
        async () => {
          await openFiles(page, server, "/");
          const product = page.getByTestId("sidebar-product");
          assert.equal(await product.locator("a").getAttribute("href"), links.projectUrl);
          assert.match(await product.innerText(), /File Browser\s+v\d+\.\d+\.\d+/);
        },
      );

      await t.step("the footer's Help opens the help card with every shortcut; OK closes it", async () => {
        await page.getByTestId("sidebar-help").click();
        const help = page.getByTestId("help");
        await help.waitFor();
        const text = await help.innerText();
        for (
          const key of [
            "F1",
            "F2",
            "DEL",
            "ESC",
            "CTRL + S",
            "CTRL + F",
            "CTRL + Click",
            "Click",
            "Double click",
          ]
        ) {
          assert.ok(text.includes(key), key);
        }
        await help.getByRole("button", { name: "OK" }).click();
        await help.waitFor({ state: "detached" });
      });

      await t.step("an error toast has Close and Report issue (a prefilled link, nothing sent)", async () => {
        let reported = 0;
        page.on("request", (r) => {
          if (r.url().startsWith("https://tracker.example")) reported++;
        });
        await page.route(
          /\/api\/resources\/.*/,
          (route) =>
            route.request().method() === "POST"
              ? route.fulfill({ status: 500, body: "500 Internal Server Error" })
              : route.fallback(),
        );
        await page.getByRole("button", { name: "New folder" }).first().click();
        // Type into the prompt's field itself: keys sent before it has the focus would be lost on a loaded machine.
        const input = page.locator('[data-testid="prompt"][data-prompt] input').first();
        await input.waitFor();
        await input.fill("broken");
        await input.press("Enter");
        const toast = page.getByTestId("toast-error").last();
        await toast.waitFor();
        const href = await toast.getByTestId("toast-report").getAttribute("href");
        const url = new URL(href!);
        assert.equal(url.origin + url.pathname, links.issuesUrl);
        assert.match(url.searchParams.get("title")!, /Something really went wrong/);
        assert.match(url.searchParams.get("body")!, /Version: \d/);
        assert.equal(reported, 0, "nothing goes to the tracker by itself");
        // The failed prompt stays open over the page; close it, then the toast.
        await page.keyboard.press("Escape");
        await page.locator('[data-testid="prompt"][data-prompt]').waitFor({ state: "detached" });
        await toast.getByTestId("toast-close").click();
        await page.getByTestId("toast-error").waitFor({ state: "detached" });
        await page.unroute(/\/api\/resources\/.*/);
      });

      await t.step("the share info box shows the download icon", async () => {
        const res = await server.t.request("/api/share/a/b/c/d/50%25%20off/f/readme.txt", {
          method: "POST",
          as: "alice",
          body: "{}",
        });
        assert.equal(res.status, 200);
        const { hash } = await res.json() as { hash: string };
        await page.goto(`${server.url}/share/${hash}`);
        const info = page.getByTestId("share-info");
        await info.waitFor();
        assert.equal(await info.locator('[data-testid="share-download"] svg').count(), 1);
      });
      await context.close();

      await t.step("with external links off: plain product name, no Report issue, no usage bar", async () => {
        const { context, page } = await newSession(browser, closed, { as: "alice" });
        await page.route(
          /\/api\/resources\/.*/,
          (route) =>
            route.request().method() === "POST"
              ? route.fulfill({ status: 500, body: "500 Internal Server Error" })
              : route.fallback(),
        );
        await openFiles(page, closed, "/");
        assert.equal(await page.getByTestId("sidebar-product").locator("a").count(), 0);
        assert.equal(await page.getByTestId("usage").count(), 0);
        await page.getByRole("button", { name: "New folder" }).first().click();
        // Into the prompt's field, not wherever the keyboard focus is while the prompt mounts (a busy machine).
        const field = page.getByTestId("new-dir").locator("input");
        await field.fill("broken");
        await field.press("Enter");
        await page.getByTestId("toast-error").waitFor();
        assert.equal(await page.getByTestId("toast-report").count(), 0);
        assert.equal(await page.getByTestId("toast-close").count(), 1);
        await context.close();
      });
    } finally {
      await browser.close();
      await server.close();
      await closed.close();
    }
  },
});
