// This module is browser-compatible.
/** The page data in the browser: startup config, session user and the active locale's strings (read once). */
import { createTranslator, DEFAULT_LOCALE, isLocale } from "../lib/i18n.ts";
import type { Locale, Strings } from "../lib/i18n.ts";
import { PAGE_DATA_IDS } from "../lib/startup_config.ts";
import type { PageInfo, RenderData } from "../lib/startup_config.ts";
import type { StartupConfig } from "../lib/types.ts";
import { encodePath } from "../lib/url_path.ts";

/** True in the browser, false during a server render. */
export const IS_BROWSER = typeof document !== "undefined";

function readJson<T>(id: string): T | null {
  const el = document.getElementById(id);
  if (!el?.textContent) return null;
  return JSON.parse(el.textContent) as T;
}

const EMPTY_CONFIG: StartupConfig = {
  AuthMethod: "json",
  BaseURL: "",
  CSS: false,
  Color: "",
  DisableExternal: false,
  DisableUsedPercentage: false,
  EnableExec: false,
  EnableThumbs: false,
  HideLoginButton: true,
  LoginPage: true,
  LogoutPage: "/login",
  MinimumPasswordLength: 12,
  Name: "",
  NoAuth: false,
  ReCaptcha: false,
  ResizePreview: false,
  Signup: false,
  StaticURL: "/static",
  Theme: "",
  TusSettings: { chunkSize: 10485760, retryCount: 5 },
  Version: "",
  EnableGuest: false,
  WebDAV: false,
};

function load(): RenderData {
  const i18n = readJson<{ locale: string; strings: Strings }>(PAGE_DATA_IDS.i18n);
  const locale: Locale = i18n && isLocale(i18n.locale) ? i18n.locale : DEFAULT_LOCALE;
  const info: PageInfo = {
    config: readJson<StartupConfig>(PAGE_DATA_IDS.config) ?? EMPTY_CONFIG,
    user: readJson(PAGE_DATA_IDS.user),
    locale,
    strings: i18n?.strings ?? {},
  };
  return { info, t: createTranslator(locale, info.strings).t };
}

/** The page data in the browser; null during a server render (use the hooks of client/hooks.ts in components). */
export const browserPage: RenderData | null = IS_BROWSER ? load() : null;

/** The base URL ("" by default), in the browser. */
export function baseUrl(): string {
  return browserPage?.info.config.BaseURL ?? "";
}

/** The files-page URL of a vpath (folders end with "/"). */
export function filesUrl(path: string, options: { isDir?: boolean } = {}): string {
  const p = options.isDir && !path.endsWith("/") ? `${path}/` : path;
  return `${baseUrl()}/files${encodePath(p)}`;
}
