/** HTTP tests of publishing (routes/api/publish): role matrix, traversal set, settings and compatibility. */
import assert from "node:assert/strict";
import { TEST_PASSWORD, type TestApp, testApp } from "../_helpers.ts";
import type { PublishSchedule } from "../../lib/types.ts";

const POST = "---\ntitle: Hello\ndraft: true\n---\nBody\n";
const DATE = "2031-05-04T09:30:00+02:00";
const JSON_HEADERS = { "Content-Type": "application/json" };

async function site(options: { exec?: boolean } = {}): Promise<TestApp> {
  const f = await testApp({
    users: [
      { username: "writer", perm: { create: true, publish: true, modify: true } },
      { username: "reader", perm: { create: false, modify: true } },
      {
        username: "ruled",
        perm: { create: true, publish: true },
        rules: [{ regex: false, allow: false, path: "/site/content/secret", regexp: null }],
      },
    ],
    settings: {
      site: { enabled: true, path: "/site", contentDir: "content", archetypesDir: "archetypes" } as never,
    },
    config: { enableExec: options.exec ?? false },
  });
  const files: Record<string, string> = {
    "/site/content/posts/hello.md": POST,
    "/site/content/secret/hidden.md": POST,
    "/site/archetypes/default.md": "---\ntitle: '{{ .Name }}'\n---\n",
    "/outside.md": POST,
  };
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${f.root}${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${f.root}${path}`, text);
  }
  await Deno.symlink("/etc", `${f.root}/site/content/escape`);
  await Deno.symlink(`${f.root}/outside.md`, `${f.root}/site/content/out.md`);
  return f;
}

async function call(f: TestApp, method: string, path: string, as?: string, body?: unknown) {
  const init = body === undefined ? {} : { headers: JSON_HEADERS, body: JSON.stringify(body) };
  const res = await f.request(path, { method, as, ...init });
  const text = await res.text();
  return { status: res.status, type: res.headers.get("Content-Type") ?? "", text };
}

Deno.test("publish API: role matrix (anonymous, without the permission, with it, admin)", async () => {
  const f = await site();
  try {
    const post = "/site/content/posts/hello.md";
    const endpoints: [string, string, unknown, string, number][] = [
      ["GET", "/api/publish/site", undefined, "", 200],
      ["GET", "/api/publish/archetypes", undefined, "create", 200],
      ["GET", `/api/publish/post?path=${encodeURIComponent(post)}`, undefined, "publish", 200],
      ["GET", "/api/publish/schedules", undefined, "publish", 200],
      ["POST", "/api/publish/schedules", { path: post, date: DATE }, "publish", 201],
      ["POST", "/api/publish/posts", { archetype: "default.md", title: "New", section: "" }, "create", 201],
      ["POST", "/api/publish/now", { path: post, date: DATE }, "publish", 200],
    ];
    for (const [method, path, body, perm, ok] of endpoints) {
      assert.equal((await call(f, method, path, undefined, body)).status, 401, `${method} ${path} anonymous`);
      const reader = await call(f, method, path, "reader", body);
      assert.equal(reader.status, perm ? 403 : 200, `${method} ${path} without ${perm}`);
      for (const as of ["writer", "admin"]) {
        // The admin repeats what the writer did: a second new post of that title is a conflict.
        const res = await call(f, method, path, as, body);
        const want = as === "admin" && path === "/api/publish/posts" ? 409 : ok;
        assert.equal(res.status, want, `${method} ${path} as ${as}: ${res.text}`);
        if (want < 300) assert.match(res.type, /^application\/json/);
      }
    }
    const cancel = await call(
      f,
      "DELETE",
      "/api/publish/schedules/0123456789abcdef0123456789abcdef",
      "writer",
    );
    assert.equal(cancel.status, 404);
    assert.equal((await call(f, "DELETE", "/api/publish/schedules/x", "reader")).status, 403);
    assert.equal((await call(f, "GET", "/api/publish/schedules/x/log", "reader")).status, 403);
    assert.equal((await call(f, "GET", "/api/publish/schedules/x/log")).status, 401);
  } finally {
    await f.close();
  }
});

Deno.test("publish API: the traversal set never reaches a file outside the content folder", async () => {
  const f = await site();
  try {
    const paths = [
      "/site/content/../../outside.md",
      "/site/content/%2e%2e/%2e%2e/outside.md",
      "/site/content/..\\..\\outside.md",
      "/etc/passwd",
      "/site/content/escape/passwd",
      "/site/content/out.md",
      "/site/content/secret/hidden.md",
    ];
    for (const path of paths) {
      for (const as of path.includes("secret") ? ["ruled"] : ["writer", "ruled"]) {
        const info = await call(f, "GET", `/api/publish/post?path=${encodeURIComponent(path)}`, as);
        const now = await call(f, "POST", "/api/publish/now", as, { path, date: DATE });
        const later = await call(f, "POST", "/api/publish/schedules", as, { path, date: DATE });
        for (const res of [info, now, later]) {
          assert.ok([400, 403, 404].includes(res.status), `${as} ${path}: ${res.status} ${res.text}`);
        }
      }
    }
    // The rule-hidden post is fine for a user without the rule, and only for them.
    assert.equal(
      (await call(f, "POST", "/api/publish/now", "writer", { path: "/site/content/secret/hidden.md" }))
        .status,
      200,
    );
    assert.equal(await Deno.readTextFile(`${f.root}/outside.md`), POST);
    for (const section of ["..", "../..", "a/../../..", "/../../x"]) {
      const res = await call(f, "POST", "/api/publish/posts", "writer", {
        archetype: "default.md",
        title: "T",
        section,
      });
      assert.equal(res.status, 400, section);
    }
    for (const section of ["%2e%2e", "a\\..\\..", "/etc", "escape"]) {
      const res = await call(f, "POST", "/api/publish/posts", "writer", {
        archetype: "default.md",
        title: "T",
        section,
      });
      if (res.status === 201) {
        assert.match(JSON.parse(res.text).path, /^\/site\/content\/[^/]+\/t\.md$/, section);
      } else if (section.includes("\\")) {
        // A backslash is never part of a new name (lib/names.ts).
        assert.equal(res.status, 400, section);
      } else assert.equal(res.status, 403, section);
    }
    assert.equal(await Deno.stat(`${f.root}/site/t.md`).catch(() => null), null);
  } finally {
    await f.close();
  }
});

Deno.test("publish API: malformed bodies are 400, never 500", async () => {
  const f = await site();
  try {
    const bad: [string, string][] = [
      ["/api/publish/now", "not json"],
      ["/api/publish/now", "[]"],
      ["/api/publish/now", '{"path": 5}'],
      ["/api/publish/now", '{"path": "/site/content/posts/hello.md", "date": "yesterday"}'],
      ["/api/publish/schedules", '{"path": "/site/content/posts/hello.md"}'],
      ["/api/publish/schedules", '{"path": "/site/content/posts/hello.md", "date": "2000-01-01T00:00:00Z"}'],
      ["/api/publish/posts", '{"title": ["x"]}'],
      ["/api/publish/posts", '{"archetype": "default.md", "title": ""}'],
      ["/api/publish/posts", ""],
    ];
    for (const [path, body] of bad) {
      const res = await f.request(path, { method: "POST", as: "writer", headers: JSON_HEADERS, body });
      await res.body?.cancel();
      assert.equal(res.status, 400, `${path} ${body}`);
    }
    const big = await f.request("/api/publish/now", {
      method: "POST",
      as: "writer",
      headers: JSON_HEADERS,
      body: JSON.stringify({ path: "x".repeat(2 * 1024 * 1024) }),
    });
    await big.body?.cancel();
    assert.equal(big.status, 413);
  } finally {
    await f.close();
  }
});

Deno.test("publish API: a schedule is published by the app's queue listener and its log is kept", async () => {
  const f = await site({ exec: true });
  try {
    const settings = await (await f.request("/api/settings", { as: "admin" })).json();
    settings.site.build = ["sh", "-c", "echo building; exit 4"];
    const put = await call(f, "PUT", "/api/settings", "admin", settings);
    assert.equal(put.status, 200, put.text);
    const path = "/site/content/posts/hello.md";
    const date = new Date(Date.now() + 400).toISOString();
    const created = await call(f, "POST", "/api/publish/schedules", "writer", { path, date });
    assert.equal(created.status, 201, created.text);
    const id = (JSON.parse(created.text) as PublishSchedule).id;
    let schedule: PublishSchedule | undefined;
    for (let i = 0; i < 600 && schedule?.state !== "failed"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      schedule = JSON.parse((await call(f, "GET", "/api/publish/schedules", "writer")).text)[0];
    }
    assert.deepEqual([schedule?.state, schedule?.error, schedule?.buildCode], ["failed", "build_failed", 4]);
    const log = await call(f, "GET", `/api/publish/schedules/${id}/log`, "writer");
    assert.equal(log.status, 200);
    assert.equal(JSON.parse(log.text).output, "building\n");
    assert.equal((await call(f, "GET", `/api/publish/schedules/${id}/log`, "admin")).status, 404);
    assert.equal(
      await Deno.readTextFile(`${f.root}${path}`),
      POST.replace("draft: true", `draft: false\ndate: ${date}`),
    );
  } finally {
    await f.close();
  }
});

Deno.test("settings: the Site card is validated, and clients that do not know it keep it", async () => {
  const f = await site();
  try {
    const settings = await (await f.request("/api/settings", { as: "admin" })).json();
    assert.deepEqual(settings.site, {
      enabled: true,
      path: "/site",
      contentDir: "content",
      archetypesDir: "archetypes",
      frontMatter: "detect",
      build: [],
    });
    for (const path of ["/nope", "/outside.md"]) {
      const res = await call(f, "PUT", "/api/settings", "admin", {
        ...settings,
        site: { enabled: true, path },
      });
      assert.equal(res.status, 400, path);
    }
    const legacy = { ...settings, site: undefined, signup: true };
    assert.equal((await call(f, "PUT", "/api/settings", "admin", legacy)).status, 200);
    const after = await (await f.request("/api/settings", { as: "admin" })).json();
    assert.deepEqual([after.signup, after.site], [true, settings.site]);
    const clean = { ...settings, site: { ...settings.site, contentDir: "../../etc", build: ["hugo", 5] } };
    assert.equal((await call(f, "PUT", "/api/settings", "admin", clean)).status, 200);
    const cleaned = (await (await f.request("/api/settings", { as: "admin" })).json()).site;
    assert.deepEqual([cleaned.contentDir, cleaned.build], ["etc", ["hugo"]]);
  } finally {
    await f.close();
  }
});

Deno.test("users: the publish permission is off by default and kept by clients that do not send it", async () => {
  const f = await site();
  try {
    const settings = await (await f.request("/api/settings", { as: "admin" })).json();
    assert.equal(settings.defaults.perm.publish, false);
    const id = f.users.writer.id;
    const user = await (await f.request(`/api/users/${id}`, { as: "admin" })).json();
    assert.equal(user.perm.publish, true);
    const { publish: _, ...legacyPerm } = user.perm;
    const body = {
      what: "user",
      which: ["perm"],
      data: { ...user, perm: { ...legacyPerm, delete: true } },
      current_password: TEST_PASSWORD,
    };
    assert.equal((await call(f, "PUT", `/api/users/${id}`, "admin", body)).status, 200);
    const after = await (await f.request(`/api/users/${id}`, { as: "admin" })).json();
    assert.deepEqual([after.perm.publish, after.perm.delete], [true, true]);
  } finally {
    await f.close();
  }
});
