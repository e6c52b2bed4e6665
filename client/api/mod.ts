// This module is browser-compatible.
/**
 * The browser's API package: one module a resource over one fetch wrapper (`http.ts`). Islands and the rest of
 * client/ reach the server only through these functions; none of them calls `fetch` or reads a `Response` itself.
 * Two transports stay outside: client-side navigation's page fetch (client/partial.ts) loads pages, not the API,
 * and the upload queue's uploaders (client/upload/xhr.ts, tus-js-client in client/upload/tus.ts and client/drop.ts)
 * need upload progress, which `fetch` does not report.
 */
export { ApiError, NO_CONNECTION } from "./errors.ts";
export { apiUrl } from "./http.ts";
export type { RequestOptions } from "./http.ts";
export * from "./apppasswords.ts";
export * from "./audit.ts";
export * from "./command.ts";
export * from "./extract.ts";
export * from "./foldersize.ts";
export * from "./listing.ts";
export * from "./public_share.ts";
export * from "./publish.ts";
export * from "./raw.ts";
export * from "./resources.ts";
export * from "./search.ts";
export * from "./session.ts";
export * from "./settings.ts";
export * from "./shares.ts";
export * from "./trash.ts";
export * from "./twofa.ts";
export * from "./usage.ts";
export * from "./users.ts";
