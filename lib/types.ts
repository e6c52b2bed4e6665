// This module is browser-compatible.
/**
 * Wire shapes shared by the server and the browser (docs/api.md), by domain in lib/types/: users, settings,
 * files and publish. Import from here.
 */
export * from "./types/users.ts";
export * from "./types/settings.ts";
export * from "./types/files.ts";
export * from "./types/publish.ts";
