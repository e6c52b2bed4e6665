// This module is browser-compatible.
/** Wire shapes of users and their credentials: permissions, rules, the user record, the token, two-factor (docs/api.md). */

/** The 8 permission flags (docs/api.md#permissions), plus our `publish` (an extra key filebrowser clients ignore). */
export interface Permissions {
  admin: boolean;
  execute: boolean;
  create: boolean;
  rename: boolean;
  modify: boolean;
  delete: boolean;
  share: boolean;
  download: boolean;
  /** Our addition: schedule and publish posts of the static site (settings.site); absent = false. */
  publish?: boolean;
}

/** Permission names, in wire order. */
export const PERMISSION_NAMES = [
  "admin",
  "execute",
  "create",
  "rename",
  "modify",
  "delete",
  "share",
  "download",
  "publish",
] as const;

/** A permission name. */
export type Permission = typeof PERMISSION_NAMES[number];

/** Listing sort order. */
export interface Sorting {
  by: "name" | "size" | "modified" | string;
  asc: boolean;
}

/** An allow/deny rule (docs/security.md#the-path-gate). */
export interface Rule {
  regex: boolean;
  allow: boolean;
  path: string;
  regexp: { raw: string } | null;
}

/** View modes of the listing. */
export type ViewMode = "list" | "mosaic" | "mosaic gallery";

/** A user as sent on the wire (password always ""). */
export interface User {
  id: number;
  username: string;
  password: string;
  scope: string;
  locale: string;
  lockPassword: boolean;
  viewMode: ViewMode | string;
  singleClick: boolean;
  redirectAfterCopyMove: boolean;
  perm: Permissions;
  commands: string[];
  sorting: Sorting;
  rules: Rule[];
  hideDotfiles: boolean;
  dateFormat: boolean;
  aceEditorTheme: string;
  /** Our addition: "" (instance default), "light" or "dark". Not in the JWT. */
  theme?: string;
  /** Our addition: WebDAV access when the instance enables it (absent = on). Not in the JWT. */
  webdav?: boolean;
  /** Our addition: most bytes the scope (and the user's trash) may hold; 0 or absent = no quota. */
  quota?: number;
}

/** The stored user: the wire user plus the bcrypt hash and bookkeeping. */
export interface StoredUser extends Omit<User, "password"> {
  passwordHash: string;
  /** Bumped whenever the user's permissions, password or record change: older sessions are revoked. */
  sessionEpoch: number;
  /** Milliseconds of the last update through the API; tokens issued before it get X-Renew-Token. */
  updatedAt?: number;
}

/** The `user` claim inside the JWT (docs/api.md#authentication): exactly these 12 keys. */
export interface TokenUser {
  id: number;
  locale: string;
  viewMode: string;
  singleClick: boolean;
  redirectAfterCopyMove: boolean;
  perm: Permissions;
  commands: string[];
  lockPassword: boolean;
  hideDotfiles: boolean;
  dateFormat: boolean;
  username: string;
  aceEditorTheme: string;
}

/** Defaults for new users (settings.defaults). */
export interface UserDefaults {
  scope: string;
  locale: string;
  viewMode: string;
  singleClick: boolean;
  redirectAfterCopyMove: boolean;
  sorting: Sorting;
  perm: Permissions;
  commands: string[];
  hideDotfiles: boolean;
  dateFormat: boolean;
  aceEditorTheme: string;
}

/** An app password as listed (never its secret or hash). */
export interface AppPasswordInfo {
  id: string;
  name: string;
  /** ISO dates. */
  created: string;
  lastUsed: string | null;
}

/** A new app password: the secret is shown this once. */
export interface NewAppPassword extends AppPasswordInfo {
  password: string;
}

/** The two-factor state of the requester (GET /api/twofa). */
export interface TwoFactorStatus {
  enabled: boolean;
  /** Unused recovery codes. */
  recoveryCodesLeft: number;
  /** The admin requires this user to enrol. */
  required: boolean;
}

/** A started enrolment: the TOTP secret (base32) and its otpauth:// URI for the QR code. */
export interface TwoFactorEnrollment {
  secret: string;
  uri: string;
}

/** Who must enrol in two-factor login (settings.twoFactorRequired). */
export type TwoFactorRequirement = "" | "admins" | "all";
