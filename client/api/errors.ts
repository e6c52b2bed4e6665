// This module is browser-compatible.
/** The error of a failed call, what every caller of the API package catches and shows by its status. */

/** The message of a network failure (no answer at all). */
export const NO_CONNECTION = "000 No connection";

/** A failed API call: the HTTP status (0 = no connection) and the response text. */
export class ApiError extends Error {
  readonly status: number;
  /** The response headers (none for a network failure). */
  readonly headers: Headers;
  constructor(status: number, message: string, headers: Headers = new Headers()) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.headers = headers;
  }
}
