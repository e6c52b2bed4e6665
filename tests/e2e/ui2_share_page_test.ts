/** Browser tests: the public share page is centred, previews shared files inline and shows folders as a gallery. */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import sharp from "sharp";
import {
  hasChromium,
  hydrated,
  launchBrowser,
  newSession,
  screenshot,
  startServer,
  writeFile,
} from "./_server.ts";
import type { E2eServer } from "./_server.ts";
import { TEST_PASSWORD } from "../_helpers.ts";

const run = await hasChromium();

async function share(server: E2eServer, path: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await server.t.request(`/api/share${path}`, {
    as: "alice",
    method: "POST",
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`share ${path}: ${res.status}`);
  return (await res.json()).hash;
}

async function openShare(page: Page, server: E2eServer, hash: string): Promise<void> {
  await page.goto(`${server.url}/share/${hash}`);
  await hydrated(page, "SharePage");
}

Deno.test({
  name: "share page: centred without a sidebar gutter, inline previews, gallery, 'Show N more', expired card",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [
        { username: "alice", perm: { create: true, download: true, share: true } },
        { username: "carol", perm: { create: true, download: true, share: true } },
      ],
    });
    const browser = await launchBrowser();
    try {
      const root = server.t.root;
      await Deno.mkdir(`${root}/album`, { recursive: true });
      for (const [i, color] of ["#c33", "#3a7", "#37c"].entries()) {
        await sharp({ create: { width: 320, height: 240, channels: 3, background: color } }).jpeg()
          .toFile(`${root}/album/photo-${i}.jpg`);
      }
      for (let i = 0; i < 104; i++) {
        await writeFile(server, `/album/notes/n-${String(i).padStart(3, "0")}.txt`, "n");
      }
      await Deno.copyFile(`${root}/album/photo-0.jpg`, `${root}/cover.jpg`);
      await writeFile(server, "/readme.md", "# Hello share\n\nSome *text*.");
      await writeFile(server, "/plain.txt", "just plain words");
      await writeFile(server, "/doc.pdf", "%PDF-1.4\n%%EOF\n");
      const image = await share(server, "/cover.jpg", { password: "pw pw" });
      const md = await share(server, "/readme.md");
      const txt = await share(server, "/plain.txt");
      const pdf = await share(server, "/doc.pdf");
      const album = await share(server, "/album/");
      const notes = await share(server, "/album/notes/");

      await t.step(
        "a shared image is previewed inline and the page is centred, sidebar behind the menu",
        async () => {
          for (const scheme of ["light", "dark"] as const) {
            const { page, context } = await newSession(browser, server, { colorScheme: scheme });
            await openShare(page, server, image);
            await page.getByTestId("share-password-input").fill("pw pw");
            await page.getByTestId("share-password-submit").click();
            const img = page.locator('[data-testid="share-preview"] img');
            await img.waitFor();
            await page.waitForFunction(() =>
              (document.querySelector('[data-testid="share-preview"] img') as HTMLImageElement)
                ?.naturalWidth > 0
            );
            assert.match(await img.getAttribute("src") ?? "", /\/api\/public\/dl\/.+inline=true/);
            assert.equal(await page.getByTestId("sidebar").isVisible(), false);
            const box = (await page.getByTestId("share-page").boundingBox())!;
            const middle = box.x + box.width / 2;
            assert.ok(Math.abs(middle - 640) < 24, `centre at ${middle}`);
            await screenshot(page, `ui2-share-page-image-${scheme}`);
            await page.getByRole("button", { name: "Toggle sidebar" }).click();
            await page.locator('[data-testid="sidebar"].open').waitFor();
            assert.equal(await page.getByTestId("sidebar").getByRole("link", { name: "Login" }).count(), 1);
            await context.close();
          }
        },
      );

      await t.step("text and Markdown are shown, a PDF in a frame", async () => {
        const { page, context } = await newSession(browser, server);
        await openShare(page, server, txt);
        assert.equal(await page.getByTestId("share-text").textContent(), "just plain words");
        await openShare(page, server, md);
        await page.locator('[data-testid="markdown-view"] h1').waitFor();
        assert.equal(await page.locator('[data-testid="markdown-view"] h1').textContent(), "Hello share");
        await openShare(page, server, pdf);
        const src = await page.getByTestId("preview-pdf").getAttribute("src");
        assert.match(src ?? "", /inline=true/);
        const res = await fetch(new URL(src!, server.url));
        await res.body?.cancel();
        assert.equal(res.headers.get("content-type"), "application/pdf");
        await context.close();
      });

      await t.step("a folder share has a gallery of its images and styled checkboxes", async () => {
        for (const scheme of ["light", "dark"] as const) {
          const { page, context } = await newSession(browser, server, { colorScheme: scheme });
          await openShare(page, server, album);
          await page.getByTestId("share-items").waitFor();
          const box = page.locator(".share-items input[type=checkbox]").first();
          assert.equal(await box.evaluate((el) => getComputedStyle(el).width), "18px");
          await page.getByTestId("share-gallery-toggle").click();
          await page.getByTestId("share-gallery").waitFor();
          assert.equal(await page.locator('[data-testid="share-gallery"] img').count(), 3);
          await page.waitForFunction(() =>
            [...document.querySelectorAll<HTMLImageElement>('[data-testid="share-gallery"] img')]
              .every((i) => i.complete && i.naturalWidth > 0)
          );
          await screenshot(page, `ui2-share-page-gallery-${scheme}`);
          await context.close();
        }
      });

      await t.step("more than 100 items: the button reads 'Show N more'", async () => {
        const { page, context } = await newSession(browser, server);
        await openShare(page, server, notes);
        assert.equal(await page.getByTestId("share-more").textContent(), "Show 4 more");
        await page.getByTestId("share-more").click();
        assert.equal(await page.locator(".share-items tbody tr").count(), 104);
        await context.close();
      });

      await t.step("an unknown or expired link shows a clear card", async () => {
        for (const scheme of ["light", "dark"] as const) {
          const { page, context } = await newSession(browser, server, { colorScheme: scheme });
          await openShare(page, server, "no-such-link");
          const card = page.getByTestId("share-gone");
          await card.waitFor();
          assert.match(await card.textContent() ?? "", /expired or does not exist/);
          await screenshot(page, `ui2-share-page-gone-${scheme}`);
          await context.close();
        }
      });

      await t.step(
        "a link whose owner may no longer download shows the forbidden screen, not the content",
        async () => {
          await writeFile(server, "/carol.txt", "carol's words");
          const res = await server.t.request("/api/share/carol.txt", {
            as: "carol",
            method: "POST",
            body: "{}",
          });
          assert.equal(res.status, 200);
          const hash = (await res.json()).hash;
          const id = server.t.users.carol.id;
          const upd = await server.t.request(`/api/users/${id}`, {
            method: "PUT",
            as: "admin",
            body: JSON.stringify({
              what: "user",
              which: ["perm"],
              current_password: TEST_PASSWORD,
              data: { id, perm: { download: false } },
            }),
          });
          assert.equal(upd.status, 200);
          const { page, context } = await newSession(browser, server);
          await openShare(page, server, hash);
          const view = page.getByTestId("error-view");
          await view.waitFor();
          assert.equal(await view.getAttribute("data-status"), "403");
          assert.match(await view.textContent() ?? "", /don't have permissions/);
          assert.doesNotMatch(await page.content(), /carol's words/);
          await context.close();
        },
      );

      await t.step("phone: preview and gallery fit 390 px", async () => {
        const { page, context } = await newSession(browser, server, {
          viewport: { width: 390, height: 800 },
        });
        await openShare(page, server, md);
        await page.locator('[data-testid="markdown-view"] h1').waitFor();
        await screenshot(page, "ui2-share-page-file-phone");
        await openShare(page, server, album);
        await page.getByTestId("share-gallery-toggle").click();
        await page.getByTestId("share-gallery").waitFor();
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390));
        await screenshot(page, "ui2-share-page-gallery-phone");
        await context.close();
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
