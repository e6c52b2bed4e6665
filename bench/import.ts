/**
 * Import benchmark: a filebrowser database with 10,000 users and 50,000 shares, written by the Go generator
 * (tests/fixtures/filebrowser/gen, needs Debian's golang-go, golang-github-coreos-bbolt-dev and
 * golang-golang-x-crypto-dev), imported into a fresh on-disk KV store. Target: under 10 s.
 * Run: deno run -A bench/import.ts [users] [shares]
 */
import { importFilebrowser } from "../lib/import/mod.ts";

const users = Number(Deno.args[0] ?? 10_000);
const shares = Number(Deno.args[1] ?? 50_000);
const work = new URL("./_work/import/", import.meta.url).pathname;
await Deno.mkdir(work, { recursive: true });
const dbPath = `${work}fb-${users}-${shares}.db`;
const gen = new URL("../tests/fixtures/filebrowser/gen/", import.meta.url).pathname;

function say(line: string) {
  // deno-lint-ignore no-console -- a benchmark prints its figures
  console.log(line);
}

if (!(await Deno.stat(dbPath).then(() => true, () => false))) {
  const t0 = performance.now();
  const out = await new Deno.Command("go", {
    args: ["run", "gen.go", "-out", dbPath, "-users", String(users), "-shares", String(shares)],
    cwd: gen,
    env: { GO111MODULE: "off", GOPATH: "/usr/share/gocode", GOCACHE: `${work}gocache` },
  }).output().catch((err) => {
    say(`go is needed to write the database (${err.message}): apt-get install golang-go ...`);
    Deno.exit(1);
  });
  if (!out.success) {
    say(new TextDecoder().decode(out.stderr));
    Deno.exit(1);
  }
  say(`generated ${dbPath} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

const file = await Deno.readFile(dbPath);
const kvPath = `${work}kv-${crypto.randomUUID()}.db`;
const kv = await Deno.openKv(kvPath);
try {
  const t0 = performance.now();
  const report = await importFilebrowser(kv, file, { now: Date.now() });
  const s = (performance.now() - t0) / 1000;
  say(
    `imported ${report.users.imported} users and ${report.shares.imported} shares from ` +
      `${(file.length / 1048576).toFixed(1)} MiB in ${s.toFixed(2)} s (target < 10 s)`,
  );
  const t1 = performance.now();
  const again = await importFilebrowser(kv, file, { now: Date.now() });
  say(
    `re-run: ${again.users.unchanged} users and ${again.shares.unchanged} shares already there, ` +
      `${((performance.now() - t1) / 1000).toFixed(2)} s`,
  );
} finally {
  kv.close();
  for (const suffix of ["", "-shm", "-wal"]) await Deno.remove(kvPath + suffix).catch(() => {});
}
