/**
 * Boot-time configuration: the only reader of CLI flags and the environment (docs/configuration.md).
 * Flags win over `FB_*` variables, which win over defaults. Names follow filebrowser's so scripts keep working.
 * The parts live in config/: the shape (types.ts), the options (options.ts), value parsers (parse.ts) and
 * the resolution (load.ts).
 */
export type { AuthMethod, Config, RecaptchaConfig } from "./config/types.ts";
export { VERSION } from "./config/types.ts";
export { helpText, OPTIONS, type OptionSpec } from "./config/options.ts";
export { parseDuration, parseFlags, parseLinkUrl, parseRecaptchaHost, parseSize } from "./config/parse.ts";
export { loadConfig } from "./config/load.ts";
