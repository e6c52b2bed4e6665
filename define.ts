/** The app's typed `define` helpers (see framework/define.ts). */
import { createDefine } from "./framework/define.ts";
import type { Context } from "hono";
import type { AppEnv } from "./lib/state.ts";

export { page } from "./framework/define.ts";
export { Head } from "./framework/head.ts";

/** `define.handlers`, `define.page`, `define.middleware` typed for this app. */
export const define = createDefine<AppEnv>();

/** The Hono context of this app. */
export type AppContext = Context<AppEnv>;
