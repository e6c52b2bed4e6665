/**
 * Audit log benchmark, on a KV file: the cost one audit entry adds to a small save (`--audit-days 90` against
 * 0), one JSON page of 100 newest entries and one with a filter that matches rarely, the CSV export of every
 * entry, and the retention sweep.
 * Run: deno run -A bench/audit.ts [entries]
 */
import { testApp } from "../tests/_helpers.ts";
import { setLogSink } from "../lib/log.ts";
import { audit, purgeAudit } from "../lib/audit/mod.ts";

const entries = Number(Deno.args[0] ?? 50_000);
setLogSink(() => {});
// deno-lint-ignore no-console -- benchmark report
const report = (line: string) => console.log(line);
const dir = await Deno.makeTempDir({ prefix: "fb-bench-audit-" });

async function saves(auditDays: number, n = 300): Promise<number> {
  const t = await testApp({ config: { auditDays }, kvPath: `${dir}/saves-${auditDays}.kv` });
  await Deno.writeTextFile(`${t.root}/a.txt`, "x");
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const res = await t.request("/api/resources/a.txt", { as: "admin", method: "PUT", body: `v${i}` });
    await res.body?.cancel();
  }
  const ms = (performance.now() - t0) / n;
  await t.close();
  return ms;
}

const off = await saves(0);
const on = await saves(90);
report(
  `PUT save: ${off.toFixed(2)} ms without audit, ${on.toFixed(2)} ms with (+${(on - off).toFixed(2)} ms)`,
);

const t = await testApp({ kvPath: `${dir}/log.kv` });
let clock = Date.now() - entries * 1000;
t.deps.now = () => clock;
let t0 = performance.now();
for (let i = 0; i < entries; i++) {
  clock += 1000;
  await audit(t.deps, {
    user: i % 100 === 0 ? "rare" : `user${i % 20}`,
    action: i % 3 ? "file.save" : "file.delete",
    path: `/folder${i % 50}/file${i}.txt`,
    client: "198.51.100.7",
    status: 200,
  });
}
report(`write ${entries} entries: ${((performance.now() - t0) / entries).toFixed(3)} ms each`);

async function timed(label: string, path: string): Promise<void> {
  const t0 = performance.now();
  const res = await t.request(path, { as: "admin" });
  const body = await res.text();
  report(`${label}: ${(performance.now() - t0).toFixed(0)} ms, ${body.length} bytes`);
}
await timed("newest 100 (JSON)", "/api/audit?limit=100");
await timed("user=rare, 100 of 1 in 100 (JSON)", "/api/audit?user=rare&limit=100");
await timed(`CSV of all ${entries}`, "/api/audit?format=csv");

t.deps.config = { ...t.deps.config, auditDays: 1 };
clock += 86_400_000 - entries * 500; // the older half is past the day kept
t0 = performance.now();
const removed = await purgeAudit(t.deps);
report(`sweep: removed ${removed} in ${(performance.now() - t0).toFixed(0)} ms`);
await t.close();
await Deno.remove(dir, { recursive: true });
setLogSink(null);
