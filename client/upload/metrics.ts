// This module is browser-compatible.
/** Upload figures: item type, percentages, speed smoothing and the ETA text. */

/** Upload item types, from the MIME prefix; folders have none. */
export type UploadType = "video" | "audio" | "image" | "pdf" | "text" | "blob";

/** Speed samples kept for the moving average. */
export const SPEED_SAMPLES = 5;
/** Weight of the newest average against the previous speed. */
export const SPEED_NEW_WEIGHT = 0.2;
/** How often the speed is sampled. */
export const SPEED_INTERVAL_MS = 1000;

const MIB = 1024 * 1024;

/** The item type of a MIME type: video, audio, image, pdf, text, else blob. */
export function uploadTypeOf(mime: string): UploadType {
  if (mime.startsWith("video")) return "video";
  if (mime.startsWith("audio")) return "audio";
  if (mime.startsWith("image")) return "image";
  if (mime.startsWith("application/pdf") || mime.startsWith("pdf")) return "pdf";
  if (mime.startsWith("text")) return "text";
  return "blob";
}

/** Rounded percentage of `sent` over `size` (an empty total counts as done only when `done`). */
export function percentOf(sent: number, size: number, options: { done?: boolean } = {}): number {
  if (size <= 0) return options.done ? 100 : 0;
  return Math.min(100, Math.max(0, Math.round((sent / size) * 100)));
}

/**
 * Upload speed in MiB/s: each sample (bytes since the last sample over the time since it) joins a window of
 * the last 5 samples, and the speed moves 20 % of the way to the window's average.
 */
export class SpeedMeter {
  #samples: number[] = [];
  #lastBytes = 0;
  #lastTime: number | null = null;
  #speed = 0;

  /** Current smoothed speed in MiB/s. */
  get speed(): number {
    return this.#speed;
  }

  /** Records the total bytes sent so far at time `now` (ms); returns the new speed. */
  sample(totalBytes: number, now: number): number {
    if (this.#lastTime === null) {
      this.#lastTime = now;
      this.#lastBytes = totalBytes;
      return this.#speed;
    }
    const seconds = (now - this.#lastTime) / 1000;
    if (seconds <= 0) return this.#speed;
    const current = Math.max(0, totalBytes - this.#lastBytes) / MIB / seconds;
    this.#samples.push(current);
    if (this.#samples.length > SPEED_SAMPLES) this.#samples.shift();
    const average = this.#samples.reduce((a, b) => a + b, 0) / this.#samples.length;
    this.#speed = SPEED_NEW_WEIGHT * average + (1 - SPEED_NEW_WEIGHT) * this.#speed;
    this.#lastTime = now;
    this.#lastBytes = totalBytes;
    return this.#speed;
  }

  /** Forgets everything (a new batch starts). */
  reset(): void {
    this.#samples = [];
    this.#lastBytes = 0;
    this.#lastTime = null;
    this.#speed = 0;
  }
}

/** Seconds left for `remainingBytes` at `speedMbyte` MiB/s, or null when unknown. */
export function etaSeconds(remainingBytes: number, speedMbyte: number): number | null {
  if (!(speedMbyte > 0) || remainingBytes < 0) return null;
  return remainingBytes / (speedMbyte * MIB);
}

/** Formats an ETA as hh:mm:ss (hours may exceed 99), or --:--:-- when unknown. */
export function formatEta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return "--:--:--";
  const total = Math.ceil(seconds);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}
