import assert from "node:assert/strict";
import { testApp } from "../_helpers.ts";

Deno.test("GET /api/settings: anonymous 401, user 403, admin gets upstream's keys in order and no secrets", async () => {
  const t = await testApp({ users: [{ username: "alice", perm: { create: true } }] });
  try {
    assert.equal((await t.request("/api/settings")).status, 401);
    assert.equal((await t.request("/api/settings", { as: "alice" })).status, 403);
    const res = await t.request("/api/settings", { as: "admin" });
    assert.equal(res.status, 200);
    const s = await res.json();
    assert.deepEqual(Object.keys(s).slice(0, 12), [
      "signup",
      "hideLoginButton",
      "createUserDir",
      "minimumPasswordLength",
      "userHomeBasePath",
      "defaults",
      "authMethod",
      "rules",
      "branding",
      "tus",
      "shell",
      "commands",
    ]);
    assert.equal(s.key, undefined);
    assert.deepEqual(s.tus, { chunkSize: 10485760, retryCount: 5 });
    assert.deepEqual(Object.keys(s.commands), [
      "after_copy",
      "after_delete",
      "after_rename",
      "after_restore",
      "after_save",
      "after_upload",
      "before_copy",
      "before_delete",
      "before_rename",
      "before_restore",
      "before_save",
      "before_upload",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("PUT /api/settings: admin saves, authMethod is ignored, others are refused", async () => {
  const t = await testApp({ users: [{ username: "alice" }] });
  try {
    const current = await (await t.request("/api/settings", { as: "admin" })).json();
    const next = {
      ...current,
      signup: true,
      authMethod: "noauth",
      branding: { ...current.branding, name: "My Files" },
    };
    assert.equal(
      (await t.request("/api/settings", { method: "PUT", body: JSON.stringify(next) })).status,
      401,
    );
    assert.equal(
      (await t.request("/api/settings", { method: "PUT", as: "alice", body: JSON.stringify(next) })).status,
      403,
    );
    const res = await t.request("/api/settings", { method: "PUT", as: "admin", body: JSON.stringify(next) });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "200 OK\n");
    const saved = await (await t.request("/api/settings", { as: "admin" })).json();
    assert.equal(saved.signup, true);
    assert.equal(saved.authMethod, "json");
    assert.equal(saved.branding.name, "My Files");
  } finally {
    await t.close();
  }
});

Deno.test("PUT /api/settings refuses a bad regex rule naming it, wrong types and bad JSON, writing nothing", async () => {
  const t = await testApp();
  try {
    const before = await (await t.request("/api/settings", { as: "admin" })).text();
    const cases: [string, RegExp][] = [
      [
        JSON.stringify({
          rules: [{ regex: false, allow: false, path: "/a" }, {
            regex: true,
            allow: false,
            path: "",
            regexp: { raw: "(unclosed" },
          }],
        }),
        /global rule 2 \("\(unclosed"\)/,
      ],
      [JSON.stringify({ signup: "yes" }), /"signup" must be a boolean/],
      [JSON.stringify({ tus: { chunkSize: "big" } }), /tus.chunkSize/],
      [JSON.stringify({ rules: {} }), /"rules" must be an array/],
      ["{not json", /invalid JSON/],
      ["", /EOF/],
    ];
    for (const [body, message] of cases) {
      const res = await t.request("/api/settings", { method: "PUT", as: "admin", body });
      assert.equal(res.status, 400, body);
      assert.match(res.headers.get("Content-Type") ?? "", /text\/plain/);
      assert.match(await res.text(), message);
    }
    assert.equal(await (await t.request("/api/settings", { as: "admin" })).text(), before);
  } finally {
    await t.close();
  }
});

Deno.test("every response carries CSP, nosniff and frame-ancestors; /health answers without auth", async () => {
  const t = await testApp();
  try {
    for (const path of ["/health", "/api/users", "/api/settings", "/nowhere/at/all"]) {
      const res = await t.request(path);
      await res.body?.cancel();
      assert.match(
        res.headers.get("Content-Security-Policy") ?? "",
        /default-src 'self'.*frame-ancestors/,
        path,
      );
      assert.equal(res.headers.get("X-Content-Type-Options"), "nosniff", path);
      assert.equal(res.headers.get("Referrer-Policy"), "same-origin", path);
    }
    const health = await t.request("/health");
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: "OK" });
  } finally {
    await t.close();
  }
});

Deno.test("unclean paths and bare API prefixes answer 301 to the cleaned form", async () => {
  const t = await testApp();
  try {
    const a = await t.request("/api//users");
    assert.equal(a.status, 301);
    assert.equal(a.headers.get("Location"), "/api/users");
    const b = await t.request("/api/resources?x=1");
    assert.equal(b.status, 301);
    assert.equal(b.headers.get("Location"), "/api/resources/?x=1");
    const nf = await t.request("/api/nope", { method: "POST" });
    assert.equal(nf.status, 404);
    assert.equal(await nf.text(), "404 Not Found\n");
  } finally {
    await t.close();
  }
});

Deno.test("PUT /api/settings refuses a hook that hands a file name to a shell as code, showing the safe form", async () => {
  const t = await testApp();
  try {
    const before = await (await t.request("/api/settings", { as: "admin" })).text();
    const cases: [Record<string, unknown>, string][] = [
      [
        { commands: { after_upload: [`sh -c "cp $FILE /backup"`] } },
        `after_upload hook "sh -c \\"cp $FILE /backup\\"" would let sh run the value of $FILE as code; ` +
        `write it as: sh -c 'cp "$FILE" /backup'`,
      ],
      [
        { shell: ["sh", "-c"], commands: { before_save: [`cp "$FILE" /b`, `mv $FILE $DESTINATION`] } },
        `before_save hook "mv $FILE $DESTINATION" leaves $FILE unquoted, so the shell would split it into ` +
        `words and expand patterns in it; write it as: mv "$FILE" "$DESTINATION"`,
      ],
      [
        { commands: { before_delete: [`python3 -c "print('$FILE')"`] } },
        `before_delete hook "python3 -c \\"print('$FILE')\\"" would let python3 run the value of $FILE as code; ` +
        `put the code in single quotes and let it read $FILE from the environment`,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await t.request("/api/settings", {
        method: "PUT",
        as: "admin",
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(await res.text(), `400 Bad Request (${message})\n`);
    }
    assert.equal(await (await t.request("/api/settings", { as: "admin" })).text(), before);
    const safe = { commands: { after_upload: [`sh -c 'cp "$FILE" /backup'`, "cp $FILE /backup"] } };
    const res = await t.request("/api/settings", { method: "PUT", as: "admin", body: JSON.stringify(safe) });
    assert.equal(res.status, 200, await res.text());
  } finally {
    await t.close();
  }
});
