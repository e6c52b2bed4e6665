/** Browser tests of publishing: the Site card, the new archetype post and schedule publish prompts. */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { readFrontMatter } from "../../lib/publish/front_matter.ts";
import type { PublishSchedule } from "../../lib/types.ts";
import {
  type E2eServer,
  hasChromium,
  hydrated,
  launchBrowser,
  newSession,
  openFiles,
  screenshot,
  startServer,
  writeFile,
} from "./_server.ts";

const run = await hasChromium();
const MOBILE = { width: 390, height: 844 };
const BUILD_OK = 'echo "Start building sites …"\necho "Total in 12 ms"\n';
const BUILD_FAIL = 'echo "Error: template for \\"single.html\\" not found" >&2\nexit 2\n';

async function site(server: E2eServer): Promise<void> {
  await writeFile(server, "/site/hugo.toml", 'title = "Field Notes"\n');
  await writeFile(server, "/site/build.sh", BUILD_OK);
  await writeFile(
    server,
    "/site/archetypes/default.md",
    "---\ntitle: '{{ .Name }}'\ndate: {{ .Date }}\n---\n",
  );
  await writeFile(
    server,
    "/site/archetypes/posts.md",
    '---\ntitle: \'{{ replace .Name "-" " " | title }}\'\ndate: {{ .Date }}\ndraft: true\ntags: []\n---\n\n' +
      "Written for {{ .Site.Title }}.\n",
  );
  await writeFile(server, "/site/content/posts/plain.md", "No front matter in this one.\n");
  await writeFile(server, "/site/content/posts/old.md", "+++\ntitle = 'Old'\ndraft = true\n+++\nOld post\n");
}

async function schedules(server: E2eServer, as = "writer"): Promise<PublishSchedule[]> {
  const res = await server.t.request("/api/publish/schedules", { as });
  assert.equal(res.status, 200);
  return await res.json();
}

/** Polls until `check` holds (the server finishes on its own time); no fixed sleeps in assertions. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("condition not reached");
}

/** Clicks a header action, through the "more" menu on a phone. */
async function action(page: Page, id: string, options: { mobile?: boolean } = {}): Promise<void> {
  if (options.mobile) {
    await page.locator(".more-btn").click();
    await page.locator(`.menu [data-action="${id}"]`).click();
  } else {
    await page.locator(`.actions > [data-action="${id}"]`).click();
  }
}

Deno.test({
  name: "publish: Site card, new archetype post, schedule, reschedule, cancel, publish now and the build log",
  ignore: !run,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const server = await startServer({
      users: [
        { username: "writer", perm: { create: true, modify: true, download: true, publish: true } },
        { username: "reader", perm: { create: true, modify: true, download: true } },
      ],
      config: { enableExec: true },
    });
    const browser: Browser = await launchBrowser();
    try {
      await site(server);

      await t.step("the admin turns publishing on in the Site card", async () => {
        const { context, page } = await newSession(browser, server, { as: "admin" });
        await page.goto(`${server.url}/settings/global`);
        await hydrated(page, "SettingsGlobal");
        const card = page.getByTestId("card-site");
        await card.scrollIntoViewIfNeeded();
        await card.getByLabel("Enable publishing").check();
        await card.locator('input[name="site.path"]').fill("/site");
        await card.locator('input[name="site.build"]').fill("sh build.sh");
        await card.locator('select[name="site.frontMatter"]').selectOption("detect");
        await card.getByRole("button", { name: "Update" }).click();
        await page.getByTestId("toast-success").waitFor();
        await screenshot(page, "publish-site-card");
        const settings = await (await server.t.request("/api/settings", { as: "admin" })).json();
        assert.deepEqual(settings.site, {
          enabled: true,
          path: "/site",
          contentDir: "content",
          archetypesDir: "archetypes",
          frontMatter: "detect",
          build: ["sh", "build.sh"],
        });
        // A folder that does not exist is refused with a message.
        await card.locator('input[name="site.path"]').fill("/nope");
        await card.getByRole("button", { name: "Update" }).click();
        await page.getByTestId("toast-error").waitFor();
        await context.close();
      });

      await t.step("the Site card in dark and on a phone", async () => {
        for (
          const [name, options] of [["dark", { colorScheme: "dark" as const }], ["mobile", {
            viewport: MOBILE,
          }]]
        ) {
          const { context, page } = await newSession(browser, server, { as: "admin", ...options as object });
          await page.goto(`${server.url}/settings/global`);
          await hydrated(page, "SettingsGlobal");
          const card = page.getByTestId("card-site");
          await card.scrollIntoViewIfNeeded();
          assert.equal(await card.locator('input[name="site.path"]').inputValue(), "/site");
          await screenshot(page, `publish-site-card-${name}`);
          await context.close();
        }
      });

      await t.step("a writer creates a post from an archetype; it opens in the editor", async () => {
        const { context, page } = await newSession(browser, server, {
          as: "writer",
          timezoneId: "Asia/Kolkata",
        });
        await openFiles(page, server, "/site/content/posts/");
        await action(page, "new-post");
        const prompt = page.getByTestId("new-post");
        await prompt.waitFor();
        // The archetypes arrive after the prompt opens (the built-in default shows until then).
        await page.waitForFunction(() =>
          [...document.querySelectorAll('[data-testid="new-post"] select[name="archetype"] option')]
            .map((o) => o.textContent).join("|") === "default.md|posts.md"
        );
        assert.equal(await prompt.locator('input[name="section"]').inputValue(), "posts");
        await prompt.locator('select[name="archetype"]').selectOption("posts.md");
        await prompt.getByLabel("Title").fill("Hello, Hugo World!");
        assert.equal(
          await page.getByTestId("new-post-target").textContent(),
          "Will be created as /site/content/posts/hello-hugo-world.md",
        );
        await screenshot(page, "publish-new-post");
        await prompt.getByRole("button", { name: "Create" }).click();
        await page.getByTestId("editor-view").waitFor();
        assert.equal(new URL(page.url()).pathname, "/files/site/content/posts/hello-hugo-world.md");
        const text = await Deno.readTextFile(`${server.t.root}/site/content/posts/hello-hugo-world.md`);
        const fm = readFrontMatter(text);
        assert.deepEqual([fm?.title, fm?.draft], ["Hello, Hugo World!", true]);
        assert.match(fm?.date ?? "", /\+05:30$/, "the date carries the browser's offset");
        assert.ok(text.includes("tags: []\n---\n\nWritten for Field Notes.\n"));

        // The same title again: a clear message in the prompt, nothing overwritten.
        await openFiles(page, server, "/site/content/posts/");
        await action(page, "new-post");
        await page.getByTestId("new-post").getByLabel("Title").fill("Hello Hugo World");
        await page.getByTestId("new-post").getByRole("button", { name: "Create" }).click();
        const alert = page.getByTestId("new-post").getByRole("alert");
        await alert.waitFor();
        assert.equal(
          await alert.textContent(),
          'Cannot create "hello-hugo-world.md": a post of that name exists',
        );
        assert.equal(
          await Deno.readTextFile(`${server.t.root}/site/content/posts/hello-hugo-world.md`),
          text,
        );
        await context.close();
      });

      await t.step(
        "from the editor: schedule in the user's time zone, reschedule, then publish now",
        async () => {
          const { context, page } = await newSession(browser, server, {
            as: "writer",
            timezoneId: "Asia/Kolkata",
          });
          await openFiles(page, server, "/site/content/posts/hello-hugo-world.md");
          await page.getByTestId("editor-view").waitFor();
          await action(page, "schedule-publish");
          const prompt = page.getByTestId("schedule-publish");
          await prompt.waitFor();
          await page.getByTestId("publish-state").waitFor();
          assert.equal(await page.getByTestId("publish-state").textContent(), "Draft");
          await prompt.locator('input[name="when"]').fill("2031-05-04T09:30");
          assert.match(
            (await page.getByTestId("publish-zone").textContent())!,
            /^Time zone Asia\/(Calcutta|Kolkata): /,
          );
          await prompt.locator('button[type="submit"]').click();
          await prompt.locator('[data-testid="publish-schedules"] li[data-state="scheduled"]').waitFor();
          let list = await schedules(server);
          assert.deepEqual(list.map((s) => [s.path, s.date, s.state]), [
            ["/site/content/posts/hello-hugo-world.md", "2031-05-04T09:30:00+05:30", "scheduled"],
          ]);
          await screenshot(page, "publish-schedule");

          await prompt.locator('input[name="when"]').fill("2031-06-01T18:00");
          assert.equal(await prompt.locator('button[type="submit"]').textContent(), "Reschedule");
          await prompt.locator('button[type="submit"]').click();
          await until(async () => (list = await schedules(server))[0].version === 2);
          assert.deepEqual([list[0].date, list[0].version], ["2031-06-01T18:00:00+05:30", 2]);

          // The editor reloads with the published text.
          const reloaded = page.waitForEvent("load");
          await prompt.getByRole("button", { name: "Publish now" }).click();
          await reloaded;
          await page.getByTestId("editor-view").waitFor();
          const fm = readFrontMatter(
            await Deno.readTextFile(`${server.t.root}/site/content/posts/hello-hugo-world.md`),
          );
          assert.equal(fm?.draft, false);
          assert.match(fm?.date ?? "", /\+05:30$/);
          list = await schedules(server);
          assert.deepEqual([list[0].state, list[0].buildCode, list[0].hasLog], ["published", 0, true]);
          await context.close();
        },
      );

      await t.step(
        "from the listing: a failing build shows its message and log; cancel; no front matter",
        async () => {
          await writeFile(server, "/site/build.sh", BUILD_FAIL);
          const { context, page } = await newSession(browser, server, { as: "writer" });
          await openFiles(page, server, "/site/content/posts/");
          await page.locator('[data-testid="listing"] [data-name="old.md"]').click();
          await action(page, "schedule-publish");
          const prompt = page.getByTestId("schedule-publish");
          await page.getByTestId("publish-state").waitFor();
          await prompt.getByRole("button", { name: "Publish now" }).click();
          const error = page.getByTestId("publish-error");
          await error.waitFor();
          assert.match((await error.textContent())!, /the build command failed \(exit code 2\)/);
          assert.equal(
            readFrontMatter(await Deno.readTextFile(`${server.t.root}/site/content/posts/old.md`))?.draft,
            false,
          );
          await error.getByRole("button", { name: "Build log" }).click();
          await page.getByTestId("publish-log-text").waitFor();
          assert.match((await page.getByTestId("publish-log-text").textContent())!, /single\.html/);
          await screenshot(page, "publish-build-log");
          await page.getByRole("button", { name: "Back" }).click();

          // Schedule it again, then cancel from the list.
          await prompt.locator('input[name="when"]').fill("2032-01-01T08:00");
          await prompt.locator('button[type="submit"]').click();
          const row = prompt.locator('li[data-path="/site/content/posts/old.md"][data-state="scheduled"]');
          await row.waitFor();
          await row.getByRole("button", { name: "Cancel schedule" }).click();
          await row.waitFor({ state: "detached" });
          assert.deepEqual((await schedules(server)).map((s) => s.state).sort(), ["published"]);
          await page.keyboard.press("Escape");

          await page.locator('[data-testid="listing"] [data-name="plain.md"]').click();
          await action(page, "schedule-publish");
          await page.getByTestId("schedule-publish").getByRole("alert").waitFor();
          assert.equal(
            await page.getByTestId("schedule-publish").getByRole("alert").textContent(),
            "This file has no front matter (---, +++ or {) and cannot be published",
          );
          assert.ok(
            await page.getByTestId("schedule-publish").getByRole("button", { name: "Publish now" })
              .isDisabled(),
          );
          await context.close();
        },
      );

      await t.step("the prompts in dark and on a phone", async () => {
        const variants = [["dark", { colorScheme: "dark" as const }], ["mobile", {
          viewport: MOBILE,
        }]] as const;
        for (const [name, options] of variants) {
          const mobile = name === "mobile";
          const { context, page } = await newSession(browser, server, { as: "writer", ...options });
          await openFiles(page, server, "/site/content/posts/");
          await action(page, "new-post", { mobile });
          await page.getByTestId("new-post").getByLabel("Title").fill("A second post");
          await screenshot(page, `publish-new-post-${name}`);
          await page.keyboard.press("Escape");
          await page.getByTestId("new-post").waitFor({ state: "detached" });
          await page.locator('[data-testid="listing"] [data-name="hello-hugo-world.md"]').click();
          await action(page, "schedule-publish", { mobile });
          await page.getByTestId("publish-state").waitFor();
          await screenshot(page, `publish-schedule-${name}`);
          await context.close();
        }
      });

      await t.step("without the publish permission there is no schedule button", async () => {
        const { context, page } = await newSession(browser, server, { as: "reader" });
        await openFiles(page, server, "/site/content/posts/");
        await page.locator(`.actions > [data-action="new-post"]`).waitFor();
        await page.locator('[data-testid="listing"] [data-name="old.md"]').click();
        assert.equal(await page.locator('[data-action="schedule-publish"]').count(), 0);
        await openFiles(page, server, "/");
        assert.equal(
          await page.locator('[data-action="new-post"]').count(),
          0,
          "only under the content folder",
        );
        await context.close();
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
