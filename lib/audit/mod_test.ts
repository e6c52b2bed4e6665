import assert from "node:assert/strict";
import { audit, type AuditEntry, newId } from "./mod.ts";
import type { AppDeps } from "../state.ts";
import { captureLog } from "../../tests/http/_log.ts";

/** A real in-memory KV whose commits are counted. */
async function countingKv(): Promise<{ kv: Deno.Kv; commits: () => number; close: () => void }> {
  const kv = await Deno.openKv(":memory:");
  let commits = 0;
  const wrapped = new Proxy(kv, {
    get(target, prop) {
      if (prop === "atomic") {
        return () => {
          const op = target.atomic();
          const commit = op.commit.bind(op);
          op.commit = () => {
            commits++;
            return commit();
          };
          return op;
        };
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return { kv: wrapped, commits: () => commits, close: () => kv.close() };
}

function depsOf(kv: Deno.Kv): Pick<AppDeps, "kv" | "now" | "config"> {
  return { kv, now: Date.now, config: { auditDays: 30 } as AppDeps["config"] };
}

async function stored(kv: Deno.Kv): Promise<AuditEntry[]> {
  const out: AuditEntry[] = [];
  for await (const e of kv.list<AuditEntry>({ prefix: ["audit"] })) out.push(e.value);
  return out;
}

Deno.test("audit() writes simultaneous events in shared commits, each exactly once", async () => {
  const { kv, commits, close } = await countingKv();
  const logs = captureLog();
  try {
    const n = 100;
    await Promise.all(
      Array.from(
        { length: n },
        (_, i) =>
          audit(depsOf(kv), { user: "u", action: "file.download", path: `/f${i}`, client: "c", status: 200 }),
      ),
    );
    const entries = await stored(kv);
    assert.equal(entries.length, n);
    assert.deepEqual(
      new Set(entries.map((e) => e.path)),
      new Set(Array.from({ length: n }, (_, i) => `/f${i}`)),
    );
    // The first event goes out alone, the others wait for it and share commits of at most 32 entries.
    assert.ok(commits() < n, `${commits()} commits for ${n} events`);
    assert.ok(commits() >= Math.ceil(n / 32), `${commits()} commits`);
    // Awaited one after another, each event is written before audit() returns.
    await audit(depsOf(kv), { user: "u", action: "file.save", client: "c", status: 200 });
    assert.equal((await stored(kv)).length, n + 1);
    assert.deepEqual(logs.errors(), []);
  } finally {
    logs.stop();
    close();
  }
});

Deno.test("audit() keeps the other events of a shared commit when one entry cannot be written", async () => {
  const kv = await Deno.openKv(":memory:");
  // Refuses any commit that holds an entry marked "poison", like a write the store rejects.
  const picky = {
    atomic() {
      const op = kv.atomic();
      let poisoned = false;
      return {
        set(key: Deno.KvKey, value: AuditEntry) {
          if (value.detail === "poison") poisoned = true;
          op.set(key, value);
          return this;
        },
        commit: () => poisoned ? Promise.reject(new Error("refused entry")) : op.commit(),
      };
    },
  } as unknown as Deno.Kv;
  const logs = captureLog();
  try {
    const event = (detail: string) => ({
      user: "u",
      action: "file.download",
      client: "c",
      status: 200,
      detail,
    });
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => audit(depsOf(picky), event(i === 5 ? "poison" : `${i}`))),
    );
    const details = (await stored(kv)).map((e) => e.detail).sort();
    assert.deepEqual(details, ["0", "1", "2", "3", "4", "6", "7", "8", "9"]);
    assert.equal(logs.lines.filter((l) => l.level === "warn" && l.line.includes("refused entry")).length, 1);
    assert.deepEqual(logs.errors(), []);
  } finally {
    logs.stop();
    kv.close();
  }
});

Deno.test("newId() gives distinct ids that sort in the order they were made", () => {
  const ids = Array.from({ length: 2000 }, () => newId());
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) assert.match(id, /^[0-9a-z]{6}[0-9a-f]{8}$/);
  // Apart from the wrap of the 6-digit sequence, which 2000 ids cross at most once.
  const descents = ids.slice(1).filter((id, i) => id <= ids[i]).length;
  assert.ok(descents <= 1, `${descents} ids sorted before their predecessor`);
  // The random part is not one repeated word.
  assert.ok(new Set(ids.map((id) => id.slice(6))).size > 1900);
});
