import assert from "node:assert/strict";
import {
  addFrontMatter,
  editFrontMatter,
  findFrontMatter,
  readFrontMatter,
  readTopLevel,
} from "./front_matter.ts";

const DATE = "2031-05-04T09:30:00+02:00";
const BODY = "\nBody with --- and +++ and { braces }\r\n  indented: not a key\ndraft: true (in the body)\n";

const YAML = `---
title: 'Old title' # keep me
tags: [a, b]
date: 2024-01-01T00:00:00Z
nested:
  draft: true
  date: nope
draft: true
weird:   "spaces kept"
---${BODY}`;

const TOML = `+++
title = "Old title"
date = '2024-01-01T00:00:00Z'
# a comment
draft = true # was a draft
tags = ["a", "b"]

[params]
draft = true
date = 2000-01-01
+++${BODY}`;

const JSON_FM = `{
  "title": "Old title",
  "tags": ["a", { "draft": true }],
  "Draft": true,
  "date": "2024-01-01T00:00:00Z",
  "params": { "date": "x", "draft": true }
}${BODY}`;

// Every line that is not the edited key's must come out unchanged, in order.
function assertOnlyChanged(before: string, after: string, changed: RegExp) {
  const keep = (s: string) => s.split("\n").filter((l) => !changed.test(l));
  assert.deepEqual(keep(after), keep(before));
}

Deno.test("editFrontMatter() YAML: only the draft and date lines change, the body stays byte for byte", () => {
  const out = editFrontMatter(YAML, { draft: false, date: DATE });
  assert.ok(out.endsWith(BODY));
  assert.ok(out.includes("\ndraft: false\n"));
  assert.ok(out.includes(`\ndate: ${DATE}\n`));
  assert.ok(out.includes("  draft: true\n  date: nope\n"), "nested keys are not top-level");
  assertOnlyChanged(YAML, out, /^(draft|date):/);
  assert.deepEqual(readFrontMatter(out), { format: "yaml", title: "Old title", date: DATE, draft: false });
});

Deno.test("editFrontMatter() TOML: keeps quotes, comments and [tables]; the body stays byte for byte", () => {
  const out = editFrontMatter(TOML, { draft: false, date: DATE });
  assert.ok(out.endsWith(BODY));
  assert.ok(out.includes(`\ndate = '${DATE}'\n`), "the old single quotes are kept");
  assert.ok(out.includes("\ndraft = false # was a draft\n"), "the trailing comment is kept");
  assert.ok(out.includes("[params]\ndraft = true\ndate = 2000-01-01\n"), "table keys are not top-level");
  assertOnlyChanged(TOML, out, /^(draft|date) =/);
  assert.deepEqual(readFrontMatter(out), { format: "toml", title: "Old title", date: DATE, draft: false });
});

Deno.test("editFrontMatter() JSON: replaces only the top-level values, any key case", () => {
  const out = editFrontMatter(JSON_FM, { draft: false, date: DATE });
  assert.ok(out.endsWith(BODY));
  const obj = JSON.parse(out.slice(0, out.length - BODY.length));
  assert.deepEqual(obj, {
    title: "Old title",
    tags: ["a", { draft: true }],
    Draft: false,
    date: DATE,
    params: { date: "x", draft: true },
  });
  assertOnlyChanged(JSON_FM, out, /^ {2}"(Draft|date)":/);
});

Deno.test("editFrontMatter() adds missing keys at the end of the top level", () => {
  const yaml = editFrontMatter("---\ntitle: x\n---\nbody", { date: DATE, draft: false });
  assert.equal(yaml, `---\ntitle: x\ndate: ${DATE}\ndraft: false\n---\nbody`);
  const toml = editFrontMatter("+++\ntitle = 'x'\n[params]\na = 1\n+++\n", { draft: false });
  assert.equal(toml, "+++\ntitle = 'x'\ndraft = false\n[params]\na = 1\n+++\n");
  const json = editFrontMatter('{\n  "title": "x"\n}\nbody', { draft: false, date: DATE });
  assert.equal(json, `{\n  "date": "${DATE}",\n  "draft": false,\n  "title": "x"\n}\nbody`);
  assert.equal(editFrontMatter("{}", { draft: true }), '{\n  "draft": true\n}');
  assert.equal(editFrontMatter("---\n---\n", { draft: true }), "---\ndraft: true\n---\n");
});

Deno.test("editFrontMatter() keeps CRLF line endings and a BOM", () => {
  const text = "\uFEFF---\r\ntitle: a\r\ndraft: true\r\n---\r\nbody\r\n";
  assert.equal(
    editFrontMatter(text, { draft: false, date: DATE }),
    `\uFEFF---\r\ntitle: a\r\ndraft: false\r\ndate: ${DATE}\r\n---\r\nbody\r\n`,
  );
});

Deno.test("editFrontMatter() replaces multi-line values whole", () => {
  const yaml = editFrontMatter("---\ntitle: >\n  long\n  folded\ndraft: true\n---\n", { title: "T" });
  assert.equal(yaml, '---\ntitle: "T"\ndraft: true\n---\n');
  const toml = editFrontMatter('+++\ntitle = """\nmany\nlines"""\ndraft = true\n+++\n', { title: "T" });
  assert.equal(toml, '+++\ntitle = "T"\ndraft = true\n+++\n');
  const oneLine = editFrontMatter('+++\ntitle = """a"""  # c\n+++\n', { title: "T" });
  assert.equal(oneLine, '+++\ntitle = "T"  # c\n+++\n');
});

const HOSTILE_TITLES = [
  'quote " and backslash \\',
  "newline\n---\nevil: true",
  "carriage\rreturn",
  "tab\tand DEL \u007f",
  "it's 'single' ''quoted''",
  "# not a comment",
  "{{ .Site.Title }}",
  "}\n{",
  "ünïcödé 日本語 🚀",
  "",
];

Deno.test("editFrontMatter() titles round-trip in every format and never break out of the value", () => {
  for (const title of HOSTILE_TITLES) {
    for (const text of [YAML, TOML, JSON_FM]) {
      const out = editFrontMatter(text, { title, draft: true });
      const read = readFrontMatter(out);
      assert.equal(read?.title, title, `${read?.format}: ${JSON.stringify(title)}`);
      assert.equal(read?.draft, true);
      assert.ok(out.endsWith(BODY));
      assert.equal(findFrontMatter(out)?.format, findFrontMatter(text)?.format);
    }
  }
});

const NO_FRONT_MATTER = [
  "",
  "just text\n",
  "---\nunterminated: yes\n",
  "--- \n",
  "+++\ntitle = 'x'\n---\n",
  "{ not json }\n",
  "[1, 2]\n",
  "  ---\nindented: no\n---\n",
  "----\nx: 1\n----\n",
];

Deno.test("findFrontMatter() finds none in texts without front matter; editFrontMatter() refuses them", () => {
  for (const text of NO_FRONT_MATTER) {
    assert.equal(findFrontMatter(text), null, JSON.stringify(text));
    assert.equal(readFrontMatter(text), null);
    assert.throws(() => editFrontMatter(text, { draft: false }), { code: "no_front_matter" });
  }
});

Deno.test("addFrontMatter() writes a block the reader understands, in the three formats", () => {
  for (const format of ["yaml", "toml", "json"] as const) {
    const out = addFrontMatter("# Hello\n", format, { title: 'a "b"', date: DATE, draft: true });
    assert.deepEqual(readFrontMatter(out), { format, title: 'a "b"', date: DATE, draft: true });
    assert.ok(out.endsWith("\n# Hello\n"));
  }
});

Deno.test("readTopLevel() reads a Hugo config title", () => {
  assert.equal(
    readTopLevel('baseURL = "x"\ntitle = "My Site"\n[params]\ntitle = "no"\n', "toml", "title"),
    "My Site",
  );
  assert.equal(readTopLevel("title: 'It''s mine'\n", "yaml", "title"), "It's mine");
  assert.equal(readTopLevel("[params]\ntitle = 'x'\n", "toml", "title"), null);
});
