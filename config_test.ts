import assert from "node:assert/strict";
import { helpText, loadConfig, parseDuration, parseFlags } from "./config.ts";

Deno.test("loadConfig(): flags win over FB_* variables, which win over defaults", () => {
  const c = loadConfig(["-p", "9000", "--baseurl", "fb/"], {
    FB_PORT: "7000",
    FB_ROOT: "/srv/x",
    FB_ENABLE_EXEC: "true",
  }, "/work");
  assert.equal(c.port, 9000);
  assert.equal(c.root, "/srv/x");
  assert.equal(c.baseUrl, "/fb");
  assert.equal(c.enableExec, true);
  assert.equal(c.database, "/work/data/filebrowser.kv");
});

Deno.test("loadConfig(): defaults put files/ next to the database and keep exec off", () => {
  const c = loadConfig([], {}, "/work");
  assert.equal(c.port, 8080);
  assert.equal(c.root, "/work/data/files");
  assert.equal(c.enableExec, false);
  assert.equal(c.minPasswordLength, 12);
  assert.equal(c.tokenExpiration, 7200);
  assert.equal(c.authMethod, "json");
});

Deno.test("loadConfig(): a remote KV URL is accepted as is", () => {
  const c = loadConfig(["-d", "https://kv.example.test/db"], {}, "/work");
  assert.equal(c.database, "https://kv.example.test/db");
});

Deno.test("loadConfig(): the search snapshot lives next to a local database, in the cache dir for a remote one", () => {
  assert.equal(loadConfig(["-d", "/db/x.kv"], {}, "/work").searchSnapshot, "/db/search-index.snapshot");
  const remote = loadConfig(["-d", "https://kv.example.test/db", "--cache-dir", "/c"], {}, "/work");
  assert.equal(remote.searchSnapshot, "/c/search-index.snapshot");
  assert.equal(
    loadConfig(["-d", ":memory:", "--cache-dir", "/c"], {}, "/w").searchSnapshot,
    "/c/search-index.snapshot",
  );
  assert.equal(loadConfig(["--disable-search-snapshot"], {}, "/work").searchSnapshot, "");
  assert.equal(loadConfig([], { FB_DISABLE_SEARCH_SNAPSHOT: "true" }, "/work").searchSnapshot, "");
});

Deno.test("loadConfig() refuses bad values with a clear message", () => {
  assert.throws(() => loadConfig(["--port", "abc"], {}, "/"), /Invalid value for --port/);
  assert.throws(() => loadConfig(["--auth", "magic"], {}, "/"), /Invalid auth method/);
  assert.throws(() => loadConfig(["--bogus"], {}, "/"));
});

Deno.test("loadConfig(): no proxy is trusted unless --trusted-proxies names it; proxy auth needs one", () => {
  assert.deepEqual(loadConfig([], {}, "/work").trustedProxies, []);
  assert.deepEqual(
    loadConfig(["--trusted-proxies", " 127.0.0.1, ::1 ,10.0.0.0/8,"], {}, "/work").trustedProxies,
    ["127.0.0.1", "::1", "10.0.0.0/8"],
  );
  assert.deepEqual(loadConfig([], { FB_TRUSTED_PROXIES: "192.0.2.1" }, "/work").trustedProxies, [
    "192.0.2.1",
  ]);
  assert.throws(() => loadConfig(["--auth", "proxy"], {}, "/"), /--auth proxy needs --trusted-proxies/);
  const proxy = loadConfig(["--auth", "proxy", "--trusted-proxies", "127.0.0.1"], {}, "/work");
  assert.equal(proxy.authMethod, "proxy");
});

Deno.test("loadConfig(): command runner limits and hook auth", () => {
  let c = loadConfig([], {}, "/work");
  assert.equal(c.execTimeout, 300);
  assert.equal(c.execNetwork, false);
  assert.equal(c.execUnconfined, false);
  assert.equal(c.execMaxProcesses, 64);
  c = loadConfig(["--exec-timeout", "90s", "--exec-network", "--exec-max-processes=8"], {
    FB_EXEC_UNCONFINED: "true",
  }, "/work");
  assert.deepEqual([c.execTimeout, c.execNetwork, c.execUnconfined, c.execMaxProcesses], [90, true, true, 8]);
  c = loadConfig(["--auth", "hook", "--auth-command", " /usr/local/bin/check-login "], {}, "/work");
  assert.equal(c.authMethod, "hook");
  assert.equal(c.authCommand, "/usr/local/bin/check-login");
  assert.throws(() => loadConfig(["--auth", "hook"], {}, "/"), /--auth hook needs --auth-command/);
  assert.throws(() => loadConfig(["--exec-timeout", "0"], {}, "/"), /Invalid duration for --exec-timeout/);
});

Deno.test("parseDuration() reads Go-style durations", () => {
  assert.equal(parseDuration("2h"), 7200);
  assert.equal(parseDuration("1h30m"), 5400);
  assert.equal(parseDuration("90"), 90);
  assert.equal(parseDuration("soon"), null);
  assert.equal(parseDuration("500ms"), 0.5);
  assert.equal(parseDuration("1m30s500ms"), 90.5);
});

Deno.test("helpText() lists every option with its environment variable", () => {
  const text = helpText();
  for (const s of ["--port", "FB_PORT", "--root", "FB_DATABASE", "--enable-exec", "FB_ADMIN_PASSWORD"]) {
    assert.ok(text.includes(s), s);
  }
});

Deno.test("parseFlags() reads long, short, inline and boolean forms", () => {
  assert.deepEqual(
    parseFlags(["--port=9", "-r", "/x", "--enable-exec", "--disable-thumbnails=false", "-h"]),
    {
      port: "9",
      root: "/x",
      "enable-exec": true,
      "disable-thumbnails": false,
      help: true,
    },
  );
  assert.throws(() => parseFlags(["--port"]), /needs a value/);
  assert.throws(() => parseFlags(["stray"]), /Unknown option/);
});

Deno.test("loadConfig(): human verification is on with a key and a secret, for json auth only", () => {
  assert.equal(loadConfig([], {}, "/work").recaptcha, null);
  const c = loadConfig(["--recaptcha-key", "site"], { FB_RECAPTCHA_SECRET: "s3cret" }, "/work");
  assert.deepEqual(c.recaptcha, { host: "https://www.google.com", key: "site", secret: "s3cret" });
  const custom = loadConfig(
    ["--recaptcha-host", "https://www.recaptcha.net/", "--recaptcha-key", "k", "--recaptcha-secret", "s"],
    {},
    "/work",
  );
  assert.equal(custom.recaptcha?.host, "https://www.recaptcha.net");
  const proxy = loadConfig(
    ["--auth", "proxy", "--trusted-proxies", "127.0.0.1", "--recaptcha-key", "k", "--recaptcha-secret", "s"],
    {},
    "/work",
  );
  assert.equal(proxy.recaptcha, null);
  assert.throws(() => loadConfig(["--recaptcha-key", "k"], {}, "/work"), /set together/);
  for (const host of ["ftp://x.example", "not a url", "https://x.example/?a=1", "https://u:p@x.example"]) {
    assert.throws(
      () =>
        loadConfig(
          ["--recaptcha-host", host, "--recaptcha-key", "k", "--recaptcha-secret", "s"],
          {},
          "/work",
        ),
      /recaptcha-host/,
      host,
    );
  }
  assert.match(helpText(), /--recaptcha-host\s+FB_RECAPTCHA_HOST/);
});
