import assert from "node:assert/strict";
import { Hono } from "hono";
import { RequestActivity } from "../lib/request_activity.ts";
import { requestActivity } from "./request_activity.ts";

Deno.test("requestActivity() counts a request as in flight while its handler runs, failed ones too", async () => {
  const activity = new RequestActivity({ quietMs: 0 });
  const app = new Hono();
  app.use("*", requestActivity(activity));
  const seen: number[] = [];
  app.get("/ok", (c) => {
    seen.push(activity.inFlight);
    return c.text("ok");
  });
  app.get("/fail", () => {
    seen.push(activity.inFlight);
    throw new Error("boom");
  });
  app.onError((_err, c) => c.text("failed", 500));
  assert.equal((await app.request("http://x/ok")).status, 200);
  assert.equal((await app.request("http://x/fail")).status, 500);
  assert.deepEqual(seen, [1, 1]);
  assert.equal(activity.inFlight, 0);
  assert.equal(activity.whenIdle(), null);
});
