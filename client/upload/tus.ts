// This module is browser-compatible.
/**
 * The tus uploader of the queue: tus-js-client with the chunk size and retry count
 * from the settings, `X-Auth` on every request, endpoint `<base>/api/tus<vpath>?override=<bool>`, and resumable
 * records in localStorage under `tus::<fingerprint>::<n>` so a reload resumes a half-done upload.
 */
import * as tusClient from "tus-js-client";
import type { DetailedError, PreviousUpload, UploadOptions, UrlStorage } from "tus-js-client";
import type { Settings } from "../../lib/types.ts";
import { ApiError } from "../api/errors.ts";
import { encodePath } from "../../lib/url_path.ts";
import type { Uploader, UploadHandle } from "./uploader.ts";
import { RECORD_PREFIX } from "./resume.ts";

/** Chunk size and retry count (settings.tus, `TusSettings` of the startup config). */
export type TusSettings = Settings["tus"];

/** First retry delay after the immediate one. */
export const RETRY_BASE_DELAY_MS = 1000;
/** Largest retry delay. */
export const RETRY_MAX_DELAY_MS = 20000;
/** Prefix of the records in localStorage. */
export { RECORD_PREFIX };

/** Retry delays for `retryCount` retries: 0, then 1000 ms doubling up to 20000 ms; none below 1. */
export function retryDelays(retryCount: number): number[] {
  const out: number[] = [];
  let delay = 0;
  for (let i = 0; i < retryCount; i++) {
    out.push(Math.min(delay, RETRY_MAX_DELAY_MS));
    delay = delay === 0 ? RETRY_BASE_DELAY_MS : delay * 2;
  }
  return out;
}

/** Retry unless the status is 4xx (409 and 423 are retried), and only while online. */
export function shouldRetry(status: number, options: { online: boolean }): boolean {
  const clientError = status >= 400 && status < 500;
  return options.online && (!clientError || status === 409 || status === 423);
}

/** An upload failure; `status` is the HTTP status (0 without a response), for the UI to translate. */
export class UploadError extends ApiError {
  constructor(status: number, message: string) {
    super(status, message);
    this.name = "UploadError";
  }
}

/** An upload stopped by the user; the queue ignores it. */
export class UploadAbortedError extends Error {
  constructor() {
    super("Upload aborted");
    this.name = "UploadAbortedError";
  }
}

const REASONS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Request Entity Too Large",
  415: "Unsupported Media Type",
  423: "Locked",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

function statusOf(err: unknown): number {
  return (err as DetailedError | null)?.originalResponse?.getStatus() ?? 0;
}

/** Turns a tus-js-client error into filebrowser's upload error messages. */
export function uploadErrorOf(err: unknown): UploadError {
  const detailed = err as Partial<DetailedError> | null;
  const response = detailed?.originalResponse ?? null;
  if (!response) {
    // No response at all: the connection dropped (or never came up).
    if (detailed?.originalRequest) return new UploadError(0, "Upload failed: 001 Connection aborted");
    return new UploadError(0, `Upload failed: ${(err as Error)?.message ?? String(err)}`);
  }
  const status = response.getStatus();
  const text = (response.getBody() ?? "").trim() || `${status} ${REASONS[status] ?? ""}`.trim();
  if (detailed?.originalRequest?.getMethod() === "POST") {
    return new UploadError(status, `Failed to create an upload: ${status} ${REASONS[status] ?? ""}`.trim());
  }
  return new UploadError(status, `Upload failed: ${text}`);
}

/** The part of the Web Storage API the records need. */
export type RecordStorage = Pick<Storage, "getItem" | "setItem" | "removeItem" | "key" | "length">;

/** tus-js-client URL storage over a Web Storage (localStorage), keys `tus::<fingerprint>::<n>`. */
export class StorageUrlStorage implements UrlStorage {
  #storage: RecordStorage;
  constructor(storage: RecordStorage) {
    this.#storage = storage;
  }
  #find(prefix: string): PreviousUpload[] {
    const out: PreviousUpload[] = [];
    for (let i = 0; i < this.#storage.length; i++) {
      const key = this.#storage.key(i);
      if (!key?.startsWith(prefix)) continue;
      try {
        out.push({ ...JSON.parse(this.#storage.getItem(key) ?? ""), urlStorageKey: key });
      } catch {
        // A damaged record must not block new uploads; it is simply not offered for resuming.
        continue;
      }
    }
    return out;
  }
  findAllUploads(): Promise<PreviousUpload[]> {
    return Promise.resolve(this.#find(RECORD_PREFIX));
  }
  findUploadsByFingerprint(fingerprint: string): Promise<PreviousUpload[]> {
    return Promise.resolve(this.#find(`${RECORD_PREFIX}${fingerprint}::`));
  }
  removeUpload(urlStorageKey: string): Promise<void> {
    this.#storage.removeItem(urlStorageKey);
    return Promise.resolve();
  }
  addUpload(fingerprint: string, upload: PreviousUpload): Promise<string> {
    const key = `${RECORD_PREFIX}${fingerprint}::${Math.round(Math.random() * 1e12)}`;
    this.#storage.setItem(key, JSON.stringify(upload));
    return Promise.resolve(key);
  }
}

/** The tus-js-client surface used here (injectable for tests). */
export interface TusModule {
  Upload: new (file: unknown, options: UploadOptions) => {
    options: UploadOptions;
    start(): void;
    abort(shouldTerminate?: boolean): Promise<void>;
    findPreviousUploads(): Promise<PreviousUpload[]>;
    resumeFromPreviousUpload(previous: PreviousUpload): void;
  };
}

/** Options of createTusUploader. */
export interface TusUploaderOptions {
  /** `TusSettings` of the startup config; null makes every upload fail with 'Tus.io settings are not defined'. */
  settings: TusSettings | null;
  /** Absolute URL prefix of the API, e.g. `https://host/base` (the endpoint is `<it>/api/tus<vpath>`). */
  baseUrl: string;
  /** The current session token (read for every request, so renewals apply mid-upload). */
  getToken(): string;
  /** Where resumable records live (localStorage in the browser). */
  storage: UrlStorage;
  /** navigator.onLine by default. */
  isOnline?: () => boolean;
  tus?: TusModule;
}

/** An Uploader that sends files with tus-js-client. */
export function createTusUploader(options: TusUploaderOptions): Uploader {
  const tus = options.tus ?? (tusClient as unknown as TusModule);
  const online = options.isOnline ?? (() => typeof navigator === "undefined" || navigator.onLine !== false);
  return (request): UploadHandle => {
    const settings = options.settings;
    if (!settings) {
      return {
        done: Promise.reject(new UploadError(500, "Tus.io settings are not defined")),
        abort: () => Promise.resolve(),
      };
    }
    let upload: InstanceType<TusModule["Upload"]> | null = null;
    let rejectDone: (err: Error) => void = () => {};
    let stopped = false;
    const done = new Promise<void>((resolve, reject) => {
      rejectDone = reject;
      const path = request.path.startsWith("/") ? request.path : `/${request.path}`;
      upload = new tus.Upload(request.file, {
        endpoint: `${options.baseUrl}/api/tus${encodePath(path)}?override=${request.overwrite}`,
        chunkSize: settings.chunkSize > 0 ? settings.chunkSize : Number.POSITIVE_INFINITY,
        retryDelays: retryDelays(settings.retryCount),
        parallelUploads: 1,
        metadata: { filename: request.file.name ?? "", filetype: request.file.type },
        urlStorage: options.storage,
        storeFingerprintForResuming: true,
        removeFingerprintOnSuccess: true,
        onBeforeRequest: (req) => req.setHeader("X-Auth", options.getToken()),
        onShouldRetry: (err) => shouldRetry(statusOf(err), { online: online() }),
        onProgress: (sent) => request.onProgress(sent),
        onSuccess: () => resolve(),
        onError: (err) => {
          // A failed upload cannot be resumed: forget its record.
          void forgetRecords(request.file, upload, options.storage).finally(() => reject(uploadErrorOf(err)));
        },
      });
      const current = upload;
      current.findPreviousUploads().then((previous) => {
        if (stopped) return;
        if (previous.length > 0) current.resumeFromPreviousUpload(previous[0]);
        current.start();
      }, (err) => reject(uploadErrorOf(err)));
    });
    return {
      done,
      async abort() {
        stopped = true;
        // abort(true) also sends DELETE and removes the resumable record.
        await (upload as InstanceType<TusModule["Upload"]> | null)?.abort(true).catch(() => {});
        rejectDone(new UploadAbortedError());
      },
    };
  };
}

async function forgetRecords(
  file: unknown,
  upload: InstanceType<TusModule["Upload"]> | null,
  storage: UrlStorage,
): Promise<void> {
  const fingerprint = upload?.options.fingerprint;
  if (!upload || !fingerprint) return;
  try {
    const fp = await fingerprint(file as File, upload.options);
    if (!fp) return;
    for (const record of await storage.findUploadsByFingerprint(fp)) {
      if (record.urlStorageKey) await storage.removeUpload(record.urlStorageKey);
    }
  } catch {
    // The record is only a resume hint; failing to delete it is harmless.
    return;
  }
}
