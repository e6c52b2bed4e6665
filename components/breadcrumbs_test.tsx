import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { BREADCRUMB_LIMIT, Breadcrumbs, crumbsOf } from "./Breadcrumbs.tsx";

const urlOf = (p: string) => `/files${p.split("/").map(encodeURIComponent).join("/")}`;
const t = (k: string) => k;

Deno.test("crumbsOf() keeps the last 4 segments and counts the hidden ones", () => {
  assert.equal(BREADCRUMB_LIMIT, 4);
  const cases: [string, string[], number][] = [
    ["/", [], 0],
    ["/a/", ["a"], 0],
    ["/a/b/c/d/", ["a", "b", "c", "d"], 0],
    ["/a/b/c/d/e/", ["b", "c", "d", "e"], 1],
    ["/1/2/3/4/5/6/7/", ["4", "5", "6", "7"], 3],
  ];
  for (const [path, names, hidden] of cases) {
    const got = crumbsOf(path, urlOf);
    assert.deepEqual(got.crumbs.map((c) => c.name), names, path);
    assert.equal(got.hidden, hidden, path);
  }
  // Each kept crumb still links to its full prefix.
  assert.equal(crumbsOf("/a/b/c/d/e/", urlOf).crumbs[0].url, "/files/a/b/");
});

Deno.test("Breadcrumbs renders an ellipsis only when segments are hidden, and plain text without links", () => {
  const deep = renderToString(<Breadcrumbs path="/a/b/c/d/e/" urlOf={urlOf} t={t} />);
  assert.match(deep, /class="ellipsis"/);
  assert.doesNotMatch(deep, />a</);
  const short = renderToString(<Breadcrumbs path="/a/b/" urlOf={urlOf} t={t} />);
  assert.doesNotMatch(short, /ellipsis/);
  // Names are bidi-isolated (a name like ".env" keeps its dot in right-to-left pages).
  assert.match(short, /<a href="\/files\/a\/"><bdi>a<\/bdi><\/a>/);
  const plain = renderToString(<Breadcrumbs path="/a/b/" urlOf={urlOf} t={t} noLinks />);
  assert.doesNotMatch(plain, /href="\/files\/a\/"/);
  assert.match(plain, /<span><bdi>a<\/bdi><\/span>/);
  // Names are shown decoded, and escaped as text.
  const odd = renderToString(<Breadcrumbs path="/50% <off>/" urlOf={urlOf} t={t} />);
  assert.match(odd, />50% &lt;off></);
});
