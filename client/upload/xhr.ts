// This module is browser-compatible.
/**
 * The plain upload for browsers without tus (docs/api.md#resources): `POST /api/resources<vpath>?override=<bool>`
 * with the file as body, through XMLHttpRequest for upload progress. Exactly 200 is success; 409 rejects with the
 * status; a network error is '001 Connection aborted'; anything else rejects with the response text.
 */
import type { Uploader, UploadHandle } from "./uploader.ts";
import { UploadAbortedError, UploadError } from "./tus.ts";
import { encodePath } from "../../lib/url_path.ts";

/** The XMLHttpRequest surface used (injectable for tests). */
export interface XhrLike {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: unknown): void;
  abort(): void;
  readonly status: number;
  readonly responseText: string;
  onload: (() => void) | null;
  onerror: (() => void) | null;
  upload: { onprogress: ((event: { loaded: number }) => void) | null };
}

/** Options of createXhrUploader. */
export interface XhrUploaderOptions {
  /** Absolute URL prefix of the API, e.g. `https://host/base`. */
  baseUrl: string;
  getToken(): string;
  createXhr?: () => XhrLike;
}

/** An Uploader that POSTs whole files. */
export function createXhrUploader(options: XhrUploaderOptions): Uploader {
  const make = options.createXhr ?? (() => new XMLHttpRequest() as unknown as XhrLike);
  return (request): UploadHandle => {
    const xhr = make();
    let rejectDone: (err: Error) => void = () => {};
    const done = new Promise<void>((resolve, reject) => {
      rejectDone = reject;
      const path = request.path.startsWith("/") ? request.path : `/${request.path}`;
      xhr.open("POST", `${options.baseUrl}/api/resources${encodePath(path)}?override=${request.overwrite}`);
      xhr.setRequestHeader("X-Auth", options.getToken());
      xhr.upload.onprogress = (event) => request.onProgress(event.loaded);
      xhr.onload = () => {
        if (xhr.status === 200) resolve();
        else if (xhr.status === 409) reject(new UploadError(409, "409"));
        else reject(new UploadError(xhr.status, xhr.responseText.trim() || String(xhr.status)));
      };
      xhr.onerror = () => reject(new UploadError(0, "001 Connection aborted"));
      xhr.send(request.file);
    });
    return {
      done,
      abort() {
        xhr.abort();
        rejectDone(new UploadAbortedError());
        return Promise.resolve();
      },
    };
  };
}
