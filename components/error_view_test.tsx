import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { errorKind, ErrorView } from "./ErrorView.tsx";

const t = (k: string) => k;

Deno.test("errorKind(): 0, 403 and 404 have their own screen; every other status is the 500 screen", () => {
  const cases: [number, string][] = [
    [0, "0"],
    [403, "403"],
    [404, "404"],
    [500, "500"],
    [400, "500"],
    [401, "500"],
    [409, "500"],
    [502, "500"],
    [-1, "500"],
  ];
  for (const [status, kind] of cases) assert.equal(errorKind(status), kind, `${status}`);
});

Deno.test("ErrorView renders the lost-connection text for 0 and the internal one for an unknown status", () => {
  const lost = renderToString(<ErrorView status={0} t={t} />);
  assert.match(lost, /data-status="0"/);
  assert.match(lost, /errors\.screen\.0/);
  const other = renderToString(<ErrorView status={418} t={t} homeUrl="/base/files/" />);
  assert.match(other, /errors\.screen\.500/);
  assert.match(other, /href="\/base\/files\/"/);
  assert.doesNotMatch(
    renderToString(<ErrorView status={404} t={t} />),
    /href=/,
    "no link without a home URL",
  );
});
