// This module is browser-compatible.
/** The jobs of the upload queue and the contract of an uploader (tus by default, plain POST as a fallback). */

/** The part of a File the queue needs (a File, or a Blob with a name). */
export interface UploadBlob {
  readonly size: number;
  readonly type: string;
  readonly name?: string;
}

/** Upload one file to the vpath `path` (replacing an existing file only with `overwrite`). */
export interface FileJob {
  kind: "file";
  path: string;
  file: UploadBlob;
  overwrite: boolean;
}

/** Create the folder `path` (and missing parents). */
export interface DirJob {
  kind: "dir";
  path: string;
}

/** One job of the queue. */
export type UploadJob = FileJob | DirJob;

/** What an uploader is asked to do. */
export interface UploadRequest {
  path: string;
  file: UploadBlob;
  overwrite: boolean;
  /** Bytes accepted so far (may be called often; the queue throttles). */
  onProgress(sent: number): void;
}

/** A running upload: `done` settles when it ends; `abort()` stops it and removes its server-side state. */
export interface UploadHandle {
  done: Promise<void>;
  abort(): Promise<void>;
}

/** Starts one upload. */
export type Uploader = (request: UploadRequest) => UploadHandle;
