/** Detects whether a folder lives on a case-insensitive file system (rules then fold case). */
import { log } from "../log.ts";

/**
 * True when `dir` is case-insensitive: creates a probe file `fb-case-probe-<random>` and stats its upper-case
 * name. The probe is always removed. If `dir` is not writable, assumes insensitive only on Windows and macOS.
 */
export async function isCaseInsensitive(dir: string): Promise<boolean> {
  const rand = crypto.getRandomValues(new Uint8Array(6)).reduce(
    (s, b) => s + b.toString(16).padStart(2, "0"),
    "",
  );
  const probe = `${dir}/fb-case-probe-${rand}`;
  try {
    await Deno.writeFile(probe, new Uint8Array(0), { createNew: true });
  } catch (err) {
    log.debug(`case probe: cannot write in "${dir}"`, err);
    return Deno.build.os === "windows" || Deno.build.os === "darwin";
  }
  try {
    await Deno.stat(`${dir}/FB-CASE-PROBE-${rand.toUpperCase()}`);
    return true;
  } catch {
    return false;
  } finally {
    await Deno.remove(probe).catch((err) => log.warn(`case probe: cannot remove "${probe}"`, err));
  }
}
