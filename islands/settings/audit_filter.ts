/** The audit page's filter form: the actions it offers and how its fields become an API query. */
import type { AuditQuery } from "../../lib/types.ts";

/** Actions offered in the filter (any other action name may be typed). */
export const ACTIONS = [
  "login",
  "logout",
  "file",
  "file.upload",
  "file.save",
  "file.delete",
  "file.move",
  "file.copy",
  "file.download",
  "file.extract",
  "trash",
  "share",
  "share.use",
  "share.drop",
  "user",
  "settings.update",
  "audit.suppressed",
];

/** The form's text fields; dates are yyyy-mm-dd of the browser's time zone. */
export interface Form {
  user: string;
  action: string;
  path: string;
  from: string;
  to: string;
}

export /** The filter as the page opens: everything. */
const EMPTY: Form = { user: "", action: "", path: "", from: "", to: "" };

/** The API query of a filled-in form. */
export function toQuery(f: Form): AuditQuery {
  const day = (d: string, end: boolean) =>
    d ? new Date(`${d}T${end ? "23:59:59.999" : "00:00"}`).getTime() : undefined;
  return {
    user: f.user.trim(),
    action: f.action.trim(),
    path: f.path,
    from: day(f.from, false),
    to: day(f.to, true),
  };
}
