import assert from "node:assert/strict";
import { readFrontMatter } from "./front_matter.ts";
import { HELLO_POST, publishFixture } from "./_testing.ts";
import {
  cancelPostSchedule,
  createPost,
  getPostBuildLog,
  getPostInfo,
  getSiteInfo,
  listArchetypes,
  listPostSchedules,
  publishNow,
  schedulePost,
  validateSiteSettings,
} from "./mod.ts";
import { findSchedule } from "./schedule.ts";
import { scopedVpathOf } from "./site.ts";

const DATE = "2031-05-04T09:30:00+02:00";

Deno.test("getSiteInfo() maps the content folder into the user's scope", async () => {
  const f = await publishFixture();
  try {
    assert.deepEqual(getSiteInfo(f.req("writer")), { enabled: true, content: "/site/content", build: true });
    assert.equal(getSiteInfo(f.req("siteonly")).content, "/content");
    assert.equal(scopedVpathOf("/other", "/site/content"), null);
    assert.equal(scopedVpathOf("/sit", "/site/content"), null);
    await f.setSite({ enabled: false });
    assert.deepEqual(getSiteInfo(f.req("writer")), { enabled: false, content: null, build: false });
  } finally {
    await f.close();
  }
});

Deno.test("listArchetypes() lists the archetypes folder, default.md first, hidden files left out", async () => {
  const f = await publishFixture();
  try {
    assert.deepEqual(await listArchetypes(f.req("writer")), [
      { name: "default.md", builtin: false },
      { name: "posts.md", builtin: false },
    ]);
    await Deno.remove(`${f.root}/site/archetypes`, { recursive: true });
    assert.deepEqual(await listArchetypes(f.req("writer")), [{ name: "default.md", builtin: true }]);
    await assert.rejects(listArchetypes(f.req("reader")), { status: 403 });
  } finally {
    await f.close();
  }
});

Deno.test("createPost() expands the archetype into content/<section>/<slug>.md with the front matter filled", async () => {
  const f = await publishFixture();
  try {
    const input = {
      archetype: "posts.md",
      title: "Ça marche: my first post!",
      section: "posts/2031",
      date: DATE,
    };
    const { path } = await createPost(f.req("writer"), input);
    assert.equal(path, "/site/content/posts/2031/ca-marche-my-first-post.md");
    const text = await Deno.readTextFile(`${f.root}${path}`);
    assert.equal(
      text,
      `+++\ntitle = "Ça marche: my first post!"\nsection = 'posts'\ndraft = true\ndate = ${DATE}\n+++\n` +
        "Welcome to Test Site\n",
    );
    await assert.rejects(createPost(f.req("writer"), input), { status: 409 });
    const builtin = await createPost(f.req("siteonly"), {
      archetype: "default.md",
      title: "Top",
      section: "",
    });
    assert.equal(builtin.path, "/content/top.md");
    const values = readFrontMatter(await Deno.readTextFile(`${f.root}/site/content/top.md`));
    assert.equal(values?.title, "Top");
    assert.equal(values?.draft, true);
    assert.match(values?.date ?? "", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  } finally {
    await f.close();
  }
});

Deno.test("createPost() takes no site title from a config symlinked out of the site folder", async () => {
  const f = await publishFixture();
  try {
    await Deno.writeTextFile(`${f.dir}/elsewhere.toml`, 'title = "Not for your eyes"\n');
    await Deno.remove(`${f.root}/site/hugo.toml`);
    await Deno.symlink(`${f.dir}/elsewhere.toml`, `${f.root}/site/hugo.toml`);
    const { path } = await createPost(f.req("writer"), {
      archetype: "posts.md",
      title: "Linked",
      section: "",
    });
    const text = await Deno.readTextFile(`${f.root}${path}`);
    assert.ok(!text.includes("Not for your eyes"), text);
    // The fallback is the server's name, as without any config.
    assert.ok(text.endsWith(`Welcome to ${f.settings.branding.name}\n`), text);
  } finally {
    await f.close();
  }
});

Deno.test("createPost() refuses hostile and impossible input (table)", async () => {
  const f = await publishFixture();
  try {
    await Deno.symlink(`${f.root}/site`, `${f.root}/site/content/up`);
    const base = { archetype: "default.md", title: "Post", section: "" };
    const cases: [string, Partial<typeof base> & { date?: string }, string, number][] = [
      ["reader", {}, "no create permission", 403],
      ["writer", { title: "   " }, "empty title", 400],
      ["writer", { title: "!!!" }, "title without letters", 400],
      ["writer", { section: "../.." }, "section climbing out", 400],
      ["writer", { section: "posts/../../x" }, "section climbing inside", 400],
      ["writer", { section: "up" }, "section through a symlink out of content", 403],
      ["writer", { archetype: "nope.md" }, "missing archetype", 404],
      ["writer", { archetype: "../hugo.toml" }, "archetype path", 404],
      ["writer", { archetype: ".hidden.md" }, "hidden archetype", 404],
      ["writer", { date: "tomorrow" }, "bad date", 400],
      ["writer", { date: "2031-05-04T09:30:00" }, "date without offset", 400],
    ];
    for (const [user, patch, what, status] of cases) {
      await assert.rejects(createPost(f.req(user), { ...base, ...patch }), { status }, what);
    }
    assert.deepEqual([...Deno.readDirSync(`${f.root}/site`)].map((e) => e.name).sort(), [
      "archetypes",
      "content",
      "hugo.toml",
    ]);
  } finally {
    await f.close();
  }
});

Deno.test("publishNow() edits only draft and date, then runs the build in the site folder", async () => {
  const f = await publishFixture();
  try {
    const path = "/site/content/posts/hello.md";
    const done = await publishNow(f.req("writer"), { path, date: DATE });
    assert.deepEqual([done.state, done.buildCode, done.hasLog], ["published", 0, true]);
    const text = await Deno.readTextFile(`${f.root}${path}`);
    assert.equal(
      text,
      HELLO_POST.replace("draft: true", "draft: false").replace(/date: .*/, `date: ${DATE}`),
    );
    assert.deepEqual(f.builds, [{
      argv: ["hugo", "--minify"],
      cwd: await Deno.realPath(`${f.root}/site`),
      user: "writer",
    }]);
    assert.equal((await getPostBuildLog(f.req("writer"), done.id)).output, "built hugo --minify\n");
    await assert.rejects(getPostBuildLog(f.req("admin"), done.id), { status: 404 });
    const info = await getPostInfo(f.req("writer"), path);
    assert.deepEqual([info.format, info.draft, info.date, info.schedule?.state], [
      "yaml",
      false,
      DATE,
      "published",
    ]);
  } finally {
    await f.close();
  }
});

Deno.test("publishNow() without exec only edits the front matter; a failing build is reported with its log", async () => {
  const off = await publishFixture({ exec: false });
  const failing = await publishFixture({ buildCode: 3 });
  try {
    const path = "/site/content/posts/hello.md";
    const quiet = await publishNow(off.req("writer"), { path, date: DATE });
    assert.deepEqual([quiet.state, quiet.hasLog, off.builds.length], ["published", false, 0]);
    const loud = await publishNow(failing.req("writer"), { path, date: DATE });
    assert.deepEqual([loud.state, loud.error, loud.buildCode], ["failed", "build_failed", 3]);
    assert.equal((await getPostBuildLog(failing.req("writer"), loud.id)).code, 3);
    assert.equal(readFrontMatter(await Deno.readTextFile(`${failing.root}${path}`))?.draft, false);
  } finally {
    await off.close();
    await failing.close();
  }
});

Deno.test("publishing refuses posts outside the content folder, without front matter, or without permission", async () => {
  const f = await publishFixture();
  try {
    await Deno.symlink(`${f.root}/site/hugo.toml`, `${f.root}/site/content/link.md`);
    const cases: [string, string, number][] = [
      ["writer", "/outside.md", 403],
      ["writer", "/site/hugo.toml", 403],
      ["writer", "/site/content/link.md", 403],
      ["writer", "/site/content", 403],
      ["writer", "/site/content/posts", 409],
      ["writer", "/site/content/missing.md", 404],
      ["writer", "/site/content/plain.md", 400],
      ["reader", "/site/content/posts/hello.md", 403],
      ["siteonly", "/site/content/posts/hello.md", 403],
      ["siteonly", "/content/nope.md", 404],
    ];
    for (const [user, path, status] of cases) {
      await assert.rejects(publishNow(f.req(user), { path, date: DATE }), { status }, `${user} ${path}`);
      await assert.rejects(schedulePost(f.req(user), { path, date: DATE }), { status }, `${user} ${path}`);
    }
    assert.equal(await Deno.readTextFile(`${f.root}/site/content/plain.md`), "no front matter here\n");
    await f.setSite({ enabled: false });
    await assert.rejects(publishNow(f.req("writer"), { path: "/site/content/posts/hello.md" }), {
      status: 404,
    });
  } finally {
    await f.close();
  }
});

Deno.test("a front-matter write that fails leaves the post unchanged and the schedule failed", async () => {
  const f = await publishFixture();
  try {
    f.deps.hooks = {
      before: () => Promise.reject(new Error("before_save hook failed")),
      after: () => Promise.resolve(),
    };
    const path = "/site/content/posts/hello.md";
    const done = await publishNow(f.req("writer"), { path, date: DATE });
    assert.deepEqual([done.state, done.error], ["failed", "internal"]);
    assert.equal(await Deno.readTextFile(`${f.root}${path}`), HELLO_POST);
    assert.equal(f.builds.length, 0);
  } finally {
    await f.close();
  }
});

Deno.test("schedulePost() needs a future date; schedules are listed and cancelled by their owner", async () => {
  const f = await publishFixture();
  try {
    const path = "/site/content/posts/hello.md";
    const past = new Date(Date.now() - 60_000).toISOString();
    await assert.rejects(schedulePost(f.req("writer"), { path, date: past }), { status: 400 });
    await assert.rejects(schedulePost(f.req("writer"), { path, date: "2999-01-01T00:00:00Z" }), {
      status: 400,
    });
    const s = await schedulePost(f.req("writer"), { path, date: DATE });
    const again = await schedulePost(f.req("writer"), { path, date: "2032-01-01T00:00:00Z" });
    assert.equal(again.id, s.id);
    assert.equal(again.version, s.version + 1);
    assert.deepEqual((await listPostSchedules(f.req("writer"))).map((x) => x.date), ["2032-01-01T00:00:00Z"]);
    assert.deepEqual(await listPostSchedules(f.req("admin")), []);
    await assert.rejects(cancelPostSchedule(f.req("admin"), s.id), { status: 404 });
    await assert.rejects(listPostSchedules(f.req("reader")), { status: 403 });
    assert.equal((await cancelPostSchedule(f.req("writer"), s.id)).state, "cancelled");
    assert.deepEqual(await listPostSchedules(f.req("writer")), []);
    assert.equal((await getPostInfo(f.req("writer"), path)).schedule, null);
    assert.equal(await Deno.readTextFile(`${f.root}${path}`), HELLO_POST);
  } finally {
    await f.close();
  }
});

Deno.test("validateSiteSettings() wants an existing folder inside the admin's scope", async () => {
  const f = await publishFixture();
  try {
    const gate = (scope: string) => ({
      root: f.root,
      user: { ...f.users.admin, scope },
      globalRules: [],
      followExternalSymlinks: false,
      foldCase: false,
    });
    const off = { ...f.settings, site: { ...f.settings.site!, enabled: false } };
    const on = { ...f.settings, site: { ...f.settings.site!, enabled: true, path: "/site" } };
    const at = (path: string) => ({ ...on, site: { ...on.site, path } });
    await validateSiteSettings(on, off, gate("/"));
    await assert.rejects(validateSiteSettings(on, off, gate("/other")), { status: 400 });
    await assert.rejects(validateSiteSettings(at("/nope"), on, gate("/")), { status: 400 });
    await assert.rejects(validateSiteSettings(at("/outside.md"), on, gate("/")), { status: 400 });
    await assert.rejects(validateSiteSettings(at(""), off, gate("/")), { status: 400 });
    // Unchanged settings are not re-checked (an admin of another scope may save other cards).
    await validateSiteSettings(on, on, gate("/other"));
  } finally {
    await f.close();
  }
});

Deno.test("a schedule survives a restart and two listening instances publish it once", async () => {
  const f = await publishFixture({ database: "kv.sqlite" });
  // The build runs confined: the site folder is the only place it can write to.
  const marker = `${f.root}/site/builds.txt`;
  try {
    await f.setSite({ build: ["sh", "-c", "echo built >> builds.txt"] });
    const path = "/site/content/posts/hello.md";
    const date = new Date(Date.now() + 1500).toISOString();
    const s = await schedulePost(f.req("writer"), { path, date });
    // The server stops before the time; two new instances start on the same KV file.
    f.kv.close();
    const script = new URL("../../tests/fixtures/publish_listener.ts", import.meta.url).pathname;
    const config = new URL("../../deno.json", import.meta.url).pathname;
    const spawn = () =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--config", config, script, `${f.dir}/kv.sqlite`, f.root, s.id, "exec"],
        stdout: "piped",
        stderr: "piped",
      }).output();
    const outputs = await Promise.all([spawn(), spawn()]);
    for (const out of outputs) {
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      assert.equal(new TextDecoder().decode(out.stdout).trim(), "published");
    }
    assert.equal(await Deno.readTextFile(marker), "built\n", "the build ran exactly once");
    const text = await Deno.readTextFile(`${f.root}${path}`);
    assert.equal(
      text,
      HELLO_POST.replace("draft: true", "draft: false").replace(/date: .*/, `date: ${date}`),
    );
    const kv = await Deno.openKv(`${f.dir}/kv.sqlite`);
    try {
      assert.equal((await findSchedule(kv, s.id))?.state, "published");
    } finally {
      kv.close();
    }
  } finally {
    await Deno.remove(f.dir, { recursive: true }).catch(() => {});
  }
});
