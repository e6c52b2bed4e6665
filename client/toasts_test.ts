import assert from "node:assert/strict";
import { ApiError } from "./api/errors.ts";
import {
  dismissToast,
  issueUrl,
  MAX_TOASTS,
  showCarriedSuccess,
  showError,
  showErrors,
  showSuccess,
  showSuccessOnNextPage,
  SUCCESS_TIMEOUT_MS,
  toasts,
} from "./toasts.ts";

Deno.test("toasts: a success goes after SUCCESS_TIMEOUT_MS, errors stay, at most MAX_TOASTS are kept", async () => {
  try {
    toasts.value = [];
    assert.equal(SUCCESS_TIMEOUT_MS, 1000);
    assert.equal(MAX_TOASTS, 5);
    showSuccess("saved");
    showError(new ApiError(500, "500"));
    assert.deepEqual(toasts.value.map((x) => x.kind), ["success", "error"]);
    // Generous: the machine is loaded; only the order of events matters.
    await new Promise((r) => setTimeout(r, SUCCESS_TIMEOUT_MS + 500));
    assert.deepEqual(toasts.value.map((x) => x.kind), ["error"], "the success left, the error stays");
    // The errors of one outcome show together (at most MAX_TOASTS), replacing the earlier error.
    showErrors(Array.from({ length: 7 }, (_, i) => ({ err: new ApiError(500, `${i}`) })));
    assert.equal(toasts.value.length, MAX_TOASTS);
    dismissToast(toasts.value[0].id);
    assert.equal(toasts.value.length, MAX_TOASTS - 1);
  } finally {
    toasts.value = [];
  }
});

Deno.test("toasts: errors offer a report, except refusals (403) and when the caller says no", () => {
  toasts.value = [];
  showErrors([
    { err: new ApiError(500, "500") },
    { err: new ApiError(0, "000 No connection") },
    { err: new ApiError(403, "403 Forbidden") },
  ]);
  assert.deepEqual(toasts.value.map((x) => x.report), [true, true, false]);
  showError(new ApiError(500, "500"), undefined, { report: false });
  assert.deepEqual(
    toasts.value.map((x) => x.report),
    [false],
    "the next outcome replaces the earlier errors",
  );
  toasts.value = [];
});

Deno.test("issueUrl() prefills title and body with the error text and version, keeping the tracker's own query", () => {
  const url = new URL(
    issueUrl("https://tracker.example/org/app/issues/new?labels=bug", 'Cannot delete "a&b": x', "1.2"),
  );
  assert.equal(url.origin + url.pathname, "https://tracker.example/org/app/issues/new");
  assert.equal(url.searchParams.get("labels"), "bug");
  assert.equal(url.searchParams.get("title"), 'Cannot delete "a&b": x');
  assert.equal(url.searchParams.get("body"), 'Cannot delete "a&b": x\n\nVersion: 1.2');
  const long = new URL(issueUrl("https://tracker.example/new", "x".repeat(500), ""));
  assert.equal(long.searchParams.get("title")!.length, 200);
  assert.match(long.searchParams.get("body")!, /Version: unknown$/);
});

Deno.test("toasts: a success carried to the next page shows once there", async () => {
  toasts.value = [];
  showSuccessOnNextPage("User created!");
  assert.equal(toasts.value.length, 0, "nothing on the page that is about to leave");
  showCarriedSuccess();
  assert.deepEqual(toasts.value.map((x) => [x.kind, x.message]), [["success", "User created!"]]);
  showCarriedSuccess();
  assert.equal(toasts.value.length, 1, "shown once only");
  await new Promise((r) => setTimeout(r, SUCCESS_TIMEOUT_MS + 50));
  assert.equal(toasts.value.length, 0, "and leaves like any success");
});
