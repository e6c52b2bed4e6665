/**
 * Password-guess throttle benchmark: the cost of one reserve + release in KV (in memory and on a file), and how
 * many of N simultaneous wrong logins over real connections reach the password check.
 * Run: deno run -A bench/throttle.ts [rounds]
 */
import { Throttle } from "../lib/auth/throttle.ts";
import { testApp } from "../tests/_helpers.ts";

const rounds = Number(Deno.args[0] ?? 2000);

async function perAttempt(kv: Deno.Kv): Promise<number> {
  const t = new Throttle(kv, { scope: "bench", limit: 10, clientLimit: 50 });
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) {
    await (await t.reserve("198.51.100.1", `user${i % 7}`, Date.now())).release();
  }
  return (performance.now() - t0) / rounds;
}

const mem = await Deno.openKv(":memory:");
const dir = await Deno.makeTempDir({ prefix: "fb-bench-throttle-" });
const file = await Deno.openKv(`${dir}/db.kv`);
const memMs = await perAttempt(mem);
const fileMs = await perAttempt(file);
mem.close();
file.close();
await Deno.remove(dir, { recursive: true });

const app = await testApp({ users: [{ username: "alice" }], config: { loginRateLimit: 10 } });
const ac = new AbortController();
const server = Deno.serve(
  { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen() {} },
  app.app.fetch,
);
const t0 = performance.now();
const statuses = await Promise.all(
  Array.from({ length: 100 }, (_, i) =>
    fetch(`http://127.0.0.1:${server.addr.port}/api/login`, {
      method: "POST",
      body: JSON.stringify({ username: "alice", password: `wrong-${i}` }),
    }).then(async (r) => (await r.body?.cancel(), r.status))),
);
const wall = performance.now() - t0;
ac.abort();
await server.finished;
await app.close();

const evaluated = statuses.filter((s) => s === 403).length;
// deno-lint-ignore no-console -- benchmark report
console.log(
  `reserve+release: ${memMs.toFixed(3)} ms (memory KV), ${
    fileMs.toFixed(3)
  } ms (file KV), ${rounds} rounds\n` +
    `100 simultaneous wrong logins, limit 10: ${evaluated} evaluated, ${100 - evaluated} answered 429, ` +
    `${wall.toFixed(0)} ms`,
);
