import assert from "node:assert/strict";
import { loadConfig, parseLinkUrl } from "./config.ts";
import { startupConfig } from "./lib/startup_config.ts";
import { defaultSettings, normalizeSettings } from "./lib/settings.ts";

Deno.test("--issues-url and --project-url: off by default, http(s) only, hidden when external links are off", () => {
  const off = loadConfig([], {}, "/tmp");
  assert.equal(off.issuesUrl, "");
  assert.equal(off.projectUrl, "");
  const on = loadConfig(
    ["--issues-url", "https://tracker.example/new"],
    { FB_PROJECT_URL: "https://project.example/" },
    "/tmp",
  );
  assert.equal(on.issuesUrl, "https://tracker.example/new");
  assert.equal(on.projectUrl, "https://project.example/");
  for (
    const bad of [
      "javascript:alert(1)",
      "/relative",
      "ftp://x.example/",
      "https://u:p@x.example/",
      "nota url",
    ]
  ) {
    assert.throws(() => parseLinkUrl("issues-url", bad), /--issues-url/, bad);
  }
  const settings = normalizeSettings(defaultSettings());
  const shown = startupConfig(on, settings);
  assert.equal(shown.IssuesURL, "https://tracker.example/new");
  assert.equal(shown.ProjectURL, "https://project.example/");
  const hidden = startupConfig(on, {
    ...settings,
    branding: { ...settings.branding, disableExternal: true },
  });
  assert.equal(hidden.IssuesURL, undefined);
  assert.equal(hidden.ProjectURL, undefined);
  assert.equal(startupConfig(off, settings).IssuesURL, undefined);
});
