// This module is browser-compatible.
/** Hooks giving components the page data on both sides: the render context on the server, the page in the browser. */
import { useContext } from "preact/hooks";
import { RenderContext } from "../framework/render_context.ts";
import type { Locale, TranslateVars } from "../lib/i18n.ts";
import type { RenderData } from "../lib/startup_config.ts";
import type { StartupConfig, User } from "../lib/types.ts";
import { browserPage, IS_BROWSER } from "./page.ts";
import { user } from "./state.ts";

/** What every island needs from the page. */
export interface PageView {
  config: StartupConfig;
  /** The session user; reactive in the browser. */
  user: User | null;
  locale: Locale;
  t: (key: string, vars?: TranslateVars) => string;
}

/** The page data (config, user, locale, `t`) for the current render. */
export function usePage(): PageView {
  const server = useContext(RenderContext) as RenderData | undefined;
  const data = IS_BROWSER ? browserPage! : server!;
  return {
    config: data.info.config,
    user: IS_BROWSER ? user.value : data.info.user,
    locale: data.info.locale,
    t: data.t,
  };
}

/** Translation function outside components (browser only). */
export function t(key: string, vars?: TranslateVars): string {
  return browserPage ? browserPage.t(key, vars) : key;
}
