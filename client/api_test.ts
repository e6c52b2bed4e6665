import assert from "node:assert/strict";
import { ApiError, apiFetch } from "./api.ts";
import { t } from "./hooks.ts";
import { errorMessage } from "./toasts.ts";

async function withFetch(stub: typeof fetch, body: () => Promise<void>): Promise<void> {
  const real = globalThis.fetch;
  globalThis.fetch = stub;
  try {
    await body();
  } finally {
    globalThis.fetch = real;
  }
}

Deno.test('apiFetch(): a network failure is status 0, "000 No connection"', async () => {
  await withFetch(() => Promise.reject(new TypeError("Failed to fetch")), async () => {
    const err = await apiFetch("/resources/").then(() => null, (e) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 0);
    assert.equal(err.message, "000 No connection");
  });
});

Deno.test("apiFetch(): a non-2xx answer carries the response text and the status", async () => {
  const cases: [number, string, string][] = [
    [400, "bad rule: missing )\n", "bad rule: missing )"],
    [409, "", "409"],
    [500, "  \n", "500"],
  ];
  for (const [status, text, message] of cases) {
    await withFetch(() => Promise.resolve(new Response(text, { status })), async () => {
      const err = await apiFetch("/settings").then(() => null, (e) => e);
      assert.ok(err instanceof ApiError, `${status}`);
      assert.equal(err.status, status);
      assert.equal(err.message, message);
    });
  }
  await withFetch(() => Promise.resolve(new Response("ok")), async () => {
    assert.equal(await (await apiFetch("/x")).text(), "ok");
  });
});

Deno.test("errorMessage(): no connection, forbidden, not found and internal have their own texts", () => {
  assert.equal(errorMessage(new ApiError(0, "000 No connection")), t("errors.connection"));
  assert.equal(errorMessage(new ApiError(403, "403")), t("errors.forbidden"));
  assert.equal(errorMessage(new ApiError(404, "404")), t("errors.notFound"));
  assert.equal(errorMessage(new Error("boom")), t("errors.internal"));
  const texts = new Set(
    ["errors.connection", "errors.forbidden", "errors.notFound", "errors.internal"].map((k) => t(k)),
  );
  assert.equal(texts.size, 4);
});
