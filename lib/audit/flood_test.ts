import assert from "node:assert/strict";
import { actionGroup, AuditGate, MAX_TRACKED, OVERALL, PER_CLIENT, WINDOW_MS } from "./flood.ts";

const T0 = 1_700_000_040_000 - (1_700_000_040_000 % WINDOW_MS);

function admitMany(gate: AuditGate, client: string, action: string, n: number, now = T0): number {
  let recorded = 0;
  for (let i = 0; i < n; i++) if (gate.admit(client, action, now).record) recorded++;
  return recorded;
}

Deno.test("AuditGate: a client's refusals past its share of a minute are counted, per group, and written once it ends", () => {
  const gate = new AuditGate();
  assert.equal(admitMany(gate, "203.0.113.9", "api.unknown", 3000), PER_CLIENT);
  // Another kind of action has its own share: junk cannot hide the login failures that follow.
  assert.equal(admitMany(gate, "203.0.113.9", "login", 3), 3);
  assert.equal(admitMany(gate, "198.51.100.1", "api.unknown", 2), 2);
  assert.deepEqual(gate.flush(T0 + 1000), [], "the minute is not over");
  const next = gate.admit("198.51.100.1", "file.delete", T0 + WINDOW_MS);
  assert.equal(next.record, true);
  assert.deepEqual(next.due, [{ client: "203.0.113.9", group: "api", count: 3000 - PER_CLIENT }]);
  assert.deepEqual(gate.flush(T0 + WINDOW_MS + 5), []);
});

Deno.test("AuditGate: a flood that goes on costs one count a minute; after a quiet minute the share comes back", () => {
  const gate = new AuditGate();
  admitMany(gate, "c", "api.unknown", 50);
  assert.equal(admitMany(gate, "c", "api.unknown", 50, T0 + WINDOW_MS), 0, "still flooding: nothing in full");
  assert.deepEqual(gate.flush(T0 + 2 * WINDOW_MS), [{ client: "c", group: "api", count: 50 }]);
  // The minute T0+2W passed without a request from c (flushed empty): T0+3W starts afresh.
  assert.deepEqual(gate.flush(T0 + 3 * WINDOW_MS), []);
  assert.equal(admitMany(gate, "c", "api.unknown", 50, T0 + 3 * WINDOW_MS), PER_CLIENT);
  assert.deepEqual(gate.flush(T0 + 3 * WINDOW_MS, { final: true }), [{
    client: "c",
    group: "api",
    count: 50 - PER_CLIENT,
  }]);
});

Deno.test("AuditGate: many clients together record at most OVERALL a minute; past MAX_TRACKED they share a count", () => {
  const gate = new AuditGate();
  let recorded = 0;
  for (let i = 0; i < MAX_TRACKED + 50; i++) {
    recorded += admitMany(gate, `10.0.${i >> 8}.${i & 255}`, "share.use", 3);
  }
  assert.equal(recorded, OVERALL);
  const due = gate.flush(T0 + WINDOW_MS);
  assert.ok(due.length <= MAX_TRACKED + 1, `${due.length} counts`);
  const shared = due.find((c) => c.client === "*");
  assert.ok(shared, "clients past the tracked ones are counted together");
  assert.equal(due.reduce((n, c) => n + c.count, 0) + recorded, (MAX_TRACKED + 50) * 3);
});

Deno.test("actionGroup(): the part before the first dot", () => {
  assert.equal(actionGroup("file.delete"), "file");
  assert.equal(actionGroup("login"), "login");
  assert.equal(actionGroup("api.unknown"), "api");
});
