import { strictEqual } from "node:assert/strict";
import { guardUnsaved, pendingLeaveMessage } from "./guard.ts";

Deno.test("pendingLeaveMessage() asks only while a registered source is dirty, and not after it is removed", () => {
  let dirty = false;
  const remove = guardUnsaved({ isDirty: () => dirty, message: "Unsaved, leave?" });
  try {
    strictEqual(pendingLeaveMessage(), null);
    dirty = true;
    strictEqual(pendingLeaveMessage(), "Unsaved, leave?");
  } finally {
    remove();
  }
  strictEqual(pendingLeaveMessage(), null);
});
