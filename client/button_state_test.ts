import assert from "node:assert/strict";
import { buttonStates, trackButton } from "./button_state.ts";

async function until(cond: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 5000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

Deno.test("trackButton() shows a spinner for slow work, then a check mark, then the icon again", async () => {
  let release!: (v: boolean) => void;
  const done = trackButton("delete", new Promise<boolean>((r) => release = r));
  await until(() => buttonStates.value.get("delete") === "loading", "the spinner");
  release(true);
  assert.equal(await done, true);
  assert.equal(buttonStates.value.get("delete"), "success");
  await until(() => !buttonStates.value.has("delete"), "the resting state");
});

Deno.test("trackButton() never shows a spinner for work that is already done", async () => {
  const seen: string[] = [];
  await trackButton("copy", Promise.resolve());
  seen.push(buttonStates.value.get("copy") ?? "none");
  await until(() => !buttonStates.value.has("copy"), "the resting state");
  assert.deepEqual(seen, ["success"]);
});

Deno.test("trackButton() goes back to the icon at once on failure (false or a rejection)", async () => {
  assert.equal(await trackButton("move", Promise.resolve(false)), false);
  assert.equal(buttonStates.value.has("move"), false);
  await assert.rejects(trackButton("rename", Promise.reject(new Error("409"))), /409/);
  assert.equal(buttonStates.value.has("rename"), false);
});

Deno.test("trackButton(): a newer run of the same button owns its state", async () => {
  let releaseOld!: () => void;
  const old = trackButton("delete", new Promise<void>((r) => releaseOld = r));
  await until(() => buttonStates.value.get("delete") === "loading", "the spinner");
  const fresh = trackButton("delete", new Promise<boolean>(() => {}));
  releaseOld();
  await old;
  assert.equal(buttonStates.value.get("delete"), "loading", "the old run does not end the new one's spinner");
  void fresh;
});
