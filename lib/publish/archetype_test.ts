import assert from "node:assert/strict";
import {
  type ArchetypeContext,
  BUILTIN_ARCHETYPES,
  evaluateAction,
  expandArchetype,
  formatGoLayout,
  slugify,
  titleCase,
} from "./archetype.ts";
import { readFrontMatter } from "./front_matter.ts";

const CTX: ArchetypeContext = {
  name: "a-tale-of-two-cities",
  date: "2031-05-04T09:30:07+02:00",
  siteTitle: "My Blog",
  section: "posts/2031",
};

const EXPANSIONS: [string, string][] = [
  ["{{ .Name }}", "a-tale-of-two-cities"],
  ["{{.Name}}", "a-tale-of-two-cities"],
  ["{{ .File.ContentBaseName }}", "a-tale-of-two-cities"],
  ["{{ .Date }}", "2031-05-04T09:30:07+02:00"],
  ["{{ now }}", "2031-05-04T09:30:07+02:00"],
  ['{{ replace .Name "-" " " | title }}', "A Tale of Two Cities"],
  ['{{ replace .File.ContentBaseName "-" " " | title }}', "A Tale of Two Cities"],
  ["{{ .Name | humanize }}", "A tale of two cities"],
  ["{{ .Site.Title }}", "My Blog"],
  ["{{ .Site.Title | upper }}", "MY BLOG"],
  ["{{ .Section }}", "posts"],
  ["{{ .Type }}", "posts"],
  ['{{ now.Format "2006-01-02" }}', "2031-05-04"],
  ['{{ .Date.Format "02.01.2006 15:04:05 -0700" }}', "04.05.2031 09:30:07 +0200"],
  ['{{ "Hello World" | urlize }}', "hello-world"],
  ["{{ `raw | pipe` }}", "raw | pipe"],
  ["{{/* a comment */}}", ""],
  ["a {{- .Name -}} b", "aa-tale-of-two-citiesb"],
  ["a\n  {{- .Name }}\n", "aa-tale-of-two-cities\n"],
  ["title: '{{ .Name }}'\n", "title: 'a-tale-of-two-cities'\n"],
  // Outside the subset: left exactly as written.
  ["{{ .Params.foo }}", "{{ .Params.foo }}"],
  ["{{ if .Draft }}x{{ end }}", "{{ if .Draft }}x{{ end }}"],
  ['{{ replace .Name "-" }}', '{{ replace .Name "-" }}'],
  ['{{ title "a" "b" }}', '{{ title "a" "b" }}'],
  ["{{ .Name .Date }}", "{{ .Name .Date }}"],
  ['{{ "unterminated }}', '{{ "unterminated }}'],
  ["{{ unknown .Name }}", "{{ unknown .Name }}"],
  ["no actions {{ here", "no actions {{ here"],
  ["", ""],
];

Deno.test("expandArchetype() expands Hugo's archetype actions (table)", () => {
  for (const [template, want] of EXPANSIONS) {
    assert.equal(expandArchetype(template, CTX), want, template);
  }
});

Deno.test("expandArchetype() turns the built-in archetypes into valid front matter", () => {
  for (const format of ["yaml", "toml", "json"] as const) {
    const out = expandArchetype(BUILTIN_ARCHETYPES[format], CTX);
    assert.deepEqual(readFrontMatter(out), {
      format,
      title: "A Tale of Two Cities",
      date: CTX.date,
      draft: true,
    });
  }
});

Deno.test("evaluateAction() answers null outside the subset", () => {
  assert.equal(evaluateAction("range .Pages", CTX), null);
  assert.equal(evaluateAction(".Name | nope", CTX), null);
  assert.equal(evaluateAction("", CTX), null);
});

const SLUGS: [string, string][] = [
  ["My First Post", "my-first-post"],
  ["  Hello,   World!  ", "hello-world"],
  ["Ça va très bien", "ca-va-tres-bien"],
  ["Ünïcödé_and-dashes--", "unicode-and-dashes"],
  ["日本語のタイトル", "日本語のタイトル"],
  ["../../etc/passwd", "etc-passwd"],
  ["a/b\\c", "a-b-c"],
  ["dot.files.md", "dot-files-md"],
  ["!!!", ""],
  ["🚀", ""],
  ["x".repeat(200), "x".repeat(80)],
  [`${"ab-".repeat(30)}`, `${"ab-".repeat(26)}ab`],
];

Deno.test("slugify() makes safe file names (table)", () => {
  for (const [title, want] of SLUGS) assert.equal(slugify(title), want, title);
});

Deno.test("titleCase() follows the AP style of Hugo's default", () => {
  assert.equal(titleCase("the lord of the rings"), "The Lord of the Rings");
  assert.equal(titleCase("what it is for"), "What It Is For");
});

Deno.test("formatGoLayout() handles UTC and leaves unknown dates alone", () => {
  assert.equal(formatGoLayout("2031-01-02T03:04:05Z", "2006-01-02T15:04:05Z07:00"), "2031-01-02T03:04:05Z");
  assert.equal(formatGoLayout("2031-01-02T03:04Z", "-07:00"), "+00:00");
  assert.equal(formatGoLayout("yesterday", "2006"), "yesterday");
});
